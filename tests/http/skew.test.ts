import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtServerActions } from "../helpers/built-app";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { projectRoot } from "../helpers/next-server";

// Pages loaded on another build (a rolling upgrade; docs/deployment.md, Upgrading): the build id
// is Next's deployment id, and a server action posted by another build's page is answered with
// the action or with Next's "not found" (on which the page reloads itself), never a 500. The
// full roll across two builds is `npm run rehearse:upgrade`.

const ADMIN = { email: "boss@skew.test", password: "skew-password-123", role: "admin" as const };

describe("pages of another build", () => {
  let server: ConsoleServer;
  let admin: Browser;
  const buildId = fs.readFileSync(path.join(projectRoot, ".next", "BUILD_ID"), "utf8").trim();
  const create = builtServerActions().find((a) => a.name === "createBranchAction")!;

  beforeAll(async () => {
    server = await startConsole("pglite", { users: [ADMIN] });
    admin = new Browser(server.url);
    expect((await admin.signIn(ADMIN.email, ADMIN.password)).status).toBe(200);
  }, 120_000);
  afterAll(async () => server?.close());

  const post = (actionId: string, name: string, deployment: string) =>
    admin.request(create.page, {
      method: "POST",
      headers: { "next-action": actionId, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: server.url, "x-deployment-id": deployment },
      body: JSON.stringify([{ name }]),
    });
  const stored = async (name: string) => (JSON.parse((await admin.request(`/api/v1/branches?name=${encodeURIComponent(name)}`)).body) as { data: { name: string }[] }).data.filter((b) => b.name === name).length;

  it("names the build as the pages' deployment id", async () => {
    const page = await admin.request("/branches/new");
    expect(page.status).toBe(200);
    expect(page.body).toContain(`data-dpl-id="${buildId}"`);
    expect(page.body).toMatch(new RegExp(`/_next/static/[^"]+\\?dpl=${buildId}`));
  });

  it("applies an action of this build's pages once", async () => {
    const answer = await post(create.id, "Skew own", buildId);
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    expect(answer.body).toContain("created.");
    expect(await stored("Skew own")).toBe(1);
  });

  it("answers another build's page with the action or a reload, never a 500", async () => {
    const known = await post(create.id, "Skew other", "src-another-build");
    const applied = known.status === 200 && known.body.includes("created.");
    if (!applied) expect(known.headers["x-nextjs-action-not-found"], `${known.status} ${known.body.slice(0, 300)}`).toBe("1");
    expect(known.status).toBeLessThan(500);
    expect(await stored("Skew other")).toBe(applied ? 1 : 0);

    // An action that changed or went away in this build: Next's "unavailable", and nothing done.
    const gone = await post("7f".padEnd(42, "0"), "Skew gone", "src-another-build");
    expect(gone.status, gone.body.slice(0, 300)).toBe(409);
    expect(gone.headers["x-nextjs-action-not-found"]).toBe("1");
    expect(await stored("Skew gone")).toBe(0);
  });
});
