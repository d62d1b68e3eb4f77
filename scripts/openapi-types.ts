import fs from "node:fs";
import { CLIENT_TYPES_FILE, clientTypes } from "@/lib/openapi/client-types";

// Writes the TypeScript types of the API's OpenAPI document (openapi-typescript) for the tests' typed client.
fs.writeFileSync(CLIENT_TYPES_FILE, await clientTypes());
console.log(`wrote ${CLIENT_TYPES_FILE}`);
