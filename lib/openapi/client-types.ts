import openapiTS, { astToString } from "openapi-typescript";
import { apiDocument } from "./document";

/** Where the TypeScript types generated from the document are kept: the tests' client reads them. */
export const CLIENT_TYPES_FILE = "tests/client/api.d.ts";

/** The document's types as openapi-typescript writes them (what `npm run openapi:types` saves). */
export async function clientTypes(): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(apiDocument())) as Parameters<typeof openapiTS>[0]);
  return `// Generated from /api/v1/openapi.json by \`npm run openapi:types\`; do not edit.\n\n${astToString(ast)}`;
}
