import type { ApiOperation } from "../operation";
import { branchesApi } from "./branches";
import { documentApi } from "./document";
import { duplicatesApi } from "./duplicates";
import { exportsApi } from "./exports";
import { importsApi } from "./imports";
import { countriesApi, tokensApi, usersApi } from "./people";
import { personalDataApi } from "./personal-data";
import { subscribersApi } from "./subscribers";
import { bulkApi, trashApi } from "./trash";
import { activityApi, viewsApi } from "./views";
import { webhooksApi } from "./webhooks";

/**
 * Every /api/v1 operation, in the document's order. A new route: define its operation beside
 * these, parse with its schemas in the route, and list its group here (docs/development.md,
 * "Adding an API route"); tests/unit/openapi-coverage.test.ts fails until then.
 */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...Object.values(branchesApi),
  ...Object.values(subscribersApi),
  ...Object.values(bulkApi),
  ...Object.values(duplicatesApi),
  ...Object.values(exportsApi),
  ...Object.values(importsApi),
  ...Object.values(countriesApi),
  ...Object.values(usersApi),
  ...Object.values(viewsApi),
  ...Object.values(activityApi),
  ...Object.values(trashApi),
  ...Object.values(personalDataApi),
  ...Object.values(tokensApi),
  ...Object.values(webhooksApi),
  ...Object.values(documentApi),
];
