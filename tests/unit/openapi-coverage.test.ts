import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiDocument } from "@/lib/openapi/document";
import { CLIENT_TYPES_FILE, clientTypes } from "@/lib/openapi/client-types";
import { appEntries } from "../helpers/built-app";
import { projectRoot } from "../helpers/next-server";

// The OpenAPI document against app/api/v1 as it is on disk: every route file's every method has
// its entry, and every entry has its route. A route added without its operation fails here.

/** The catch-all that answers unknown /api/v1 paths with the error shape: no operation of its own. */
const NOT_AN_OPERATION = "/api/v1/[...path]";
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeMethods(): string[] {
  return appEntries()
    .filter((e) => e.kind === "route" && e.pattern.startsWith("/api/v1/") && e.pattern !== NOT_AN_OPERATION)
    .flatMap((e) => {
      const source = fs.readFileSync(path.join(projectRoot, "app", e.file), "utf8");
      const openApiPath = e.pattern.replace(/\[([^\]]+)\]/g, "{$1}");
      const methods = METHODS.filter((m) => new RegExp(`^export (const|async function) ${m}\\b`, "m").test(source));
      expect(methods.length, `${e.file} exports no method`).toBeGreaterThan(0);
      return methods.map((m) => `${m} ${openApiPath}`);
    })
    .sort();
}

function documentedMethods(): string[] {
  return Object.entries(apiDocument().paths ?? {})
    .flatMap(([p, item]) => METHODS.filter((m) => item[m.toLowerCase() as Lowercase<(typeof METHODS)[number]>]).map((m) => `${m} ${p}`))
    .sort();
}

describe("the OpenAPI document", () => {
  it("has an operation for every method of every /api/v1 route, and no operation without its route", () => {
    const routes = routeMethods();
    expect(routes.length).toBeGreaterThan(20);
    expect(documentedMethods()).toEqual(routes);
  });

  it("names the error shape, with an optional request_id, and both security schemes", () => {
    const document = apiDocument();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.components?.securitySchemes ?? {}).sort()).toEqual(["bearer", "session"]);
    const error = JSON.stringify(document.components?.schemas?.Error);
    expect(error).toContain('"request_id"');
    expect(document.components?.schemas?.Error).toMatchObject({ required: ["error"] });
  });

  it("gives every operation an error answer for each status it can refuse with", () => {
    for (const [p, item] of Object.entries(apiDocument().paths ?? {})) {
      for (const m of ["get", "post", "patch", "delete"] as const) {
        const op = item[m];
        if (!op) continue;
        const statuses = Object.keys(op.responses ?? {});
        expect(statuses.some((s) => s.startsWith("2")), `${m} ${p}`).toBe(true);
        if (op.security?.length) expect(statuses, `${m} ${p}`).toEqual(expect.arrayContaining(["401", "403"]));
      }
    }
  });

  it("keeps the tests' generated client types in step (npm run openapi:types)", async () => {
    expect(fs.readFileSync(path.join(projectRoot, CLIENT_TYPES_FILE), "utf8")).toBe(await clientTypes());
  });
});
