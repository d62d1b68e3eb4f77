import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

// One server process holds several copies of each module: Next compiles a module once per layer
// of the build that imports it (pages and actions, route handlers, instrumentation, the proxy),
// and server.ts loads its own. What one copy makes and another recognises must not depend on
// which copy made it (found on the production build: the per-user limit's 429 was a
// 500 on the surface that had not made the limit, and an aborted request's statements ran on
// because the pool read another copy of the request's scope). Here each "layer" is a fresh module
// graph (vi.resetModules), as the build's layers are; tests/http/limits.test.ts shows the same on
// the build itself.

type Layer = {
  errors: typeof import("@/lib/errors");
  limit: typeof import("@/lib/load/user-limit");
  outcome: typeof import("@/lib/list/outcome");
  depth: typeof import("@/lib/list/depth");
  scope: typeof import("@/lib/db/scope");
  dbErrors: typeof import("@/lib/db/errors");
  guards: typeof import("@/lib/auth/guards");
  api: typeof import("@/lib/http/api");
  config: typeof import("@/lib/config");
  storage: typeof import("@/lib/storage/types");
  imports: typeof import("@/lib/imports/read");
  bearer: typeof import("@/lib/auth/bearer");
};

async function layer(): Promise<Layer> {
  vi.resetModules();
  return {
    errors: await import("@/lib/errors"),
    limit: await import("@/lib/load/user-limit"),
    outcome: await import("@/lib/list/outcome"),
    depth: await import("@/lib/list/depth"),
    scope: await import("@/lib/db/scope"),
    dbErrors: await import("@/lib/db/errors"),
    guards: await import("@/lib/auth/guards"),
    api: await import("@/lib/http/api"),
    config: await import("@/lib/config"),
    storage: await import("@/lib/storage/types"),
    imports: await import("@/lib/imports/read"),
    bearer: await import("@/lib/auth/bearer"),
  };
}

describe("several copies of the console's modules in one process", () => {
  afterEach(async () => (await import("@/lib/load/user-limit")).setUserLimitForTests(undefined));

  it("are copies indeed (the test means something): instanceof fails across them", async () => {
    const [a, b] = [await layer(), await layer()];
    expect(a.errors.AppError).not.toBe(b.errors.AppError);
    expect(a.limit.TooManyRequestsError).not.toBe(b.limit.TooManyRequestsError);
    expect(new a.errors.AppError(404, "not_found", "x")).not.toBeInstanceOf(b.errors.AppError);
  });

  it("recognise each other's errors, and only as what they are", async () => {
    const [a, b] = [await layer(), await layer()];
    const made = {
      app: new a.errors.AppError(404, "not_found", "x"),
      tooMany: new a.limit.TooManyRequestsError(2),
      tooDeep: new a.depth.PageTooDeepError(1_000_000),
      auth: new a.guards.AuthError(403),
      config: new a.config.ConfigError("bad"),
      gone: new a.scope.ClientGoneError(),
      storage: new a.storage.StorageUnavailableError("unreachable"),
      storageKey: new a.storage.StorageKeyError("bad key"),
      importFile: new a.imports.ImportFileError("bad file"),
    };
    expect(b.errors.AppError.is(made.app)).toBe(true);
    expect(b.errors.BrandedError.is(made.app)).toBe(true);
    expect(b.limit.TooManyRequestsError.is(made.tooMany)).toBe(true);
    expect(b.errors.AppError.is(made.tooMany)).toBe(true);
    expect(b.depth.PageTooDeepError.is(made.tooDeep)).toBe(true);
    expect(b.errors.AppError.is(made.tooDeep)).toBe(true);
    expect(b.guards.AuthError.is(made.auth)).toBe(true);
    expect(b.config.ConfigError.is(made.config)).toBe(true);
    expect(b.scope.ClientGoneError.is(made.gone)).toBe(true);
    expect(b.storage.StorageUnavailableError.is(made.storage)).toBe(true);
    expect(b.errors.AppError.is(made.storage)).toBe(true);
    expect(b.storage.StorageKeyError.is(made.storageKey)).toBe(true);
    expect(b.imports.ImportFileError.is(made.importFile)).toBe(true);
    // A brand names one class: a parent is not its child, siblings are not each other.
    expect(b.limit.TooManyRequestsError.is(made.app)).toBe(false);
    expect(b.depth.PageTooDeepError.is(made.tooMany)).toBe(false);
    expect(b.errors.AppError.is(made.auth)).toBe(false);
    expect(b.errors.AppError.is(made.gone)).toBe(false);
    expect(b.errors.AppError.is(new Error("plain"))).toBe(false);
    for (const value of [null, undefined, "AppError", 429, { status: 429, code: "too_many_requests" }]) expect(b.errors.AppError.is(value)).toBe(false);
    // Still Errors, with their messages and members.
    expect(made.tooMany).toBeInstanceOf(Error);
    expect(made.tooMany).toMatchObject({ status: 429, code: "too_many_requests", retryAfter: 2 });
  });

  it("keep a subclass without a brand of its own to class identity, not its parent's brand", async () => {
    const { AppError } = await layer().then((l) => l.errors);
    class Unbranded extends AppError {}
    expect(Unbranded.is(new AppError(400, "x", "y"))).toBe(false);
    expect(Unbranded.is(new Unbranded(400, "x", "y"))).toBe(true);
    expect(AppError.is(new Unbranded(400, "x", "y"))).toBe(true);
  });

  it("answer the limit's refusal as a 429 on any surface, whichever surface made the limit", async () => {
    const [route, page] = [await layer(), await layer()];
    // The route handlers' copy makes the process's limit (one running, none waiting)…
    route.limit.setUserLimitForTests(new route.limit.UserLimit({ running: 1, waiting: 0, waitMs: 1_000 }));
    let release!: () => void;
    const running = route.limit.heavy(7, () => new Promise<void>((r) => (release = r)));
    // …the pages' copy is refused by it, and says so as a list problem, not a failure.
    const refused = await page.limit.heavy(7, async () => "ran").catch((e: unknown) => e);
    expect(page.outcome.listProblem(refused)).toMatchObject({ kind: "too_many", title: "Too many lists loading at once" });
    const answer = page.api.toErrorResponse(refused);
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe("2");
    release();
    await running;
  });

  it("share the request's scope: its abort signal and the user whose heavy work runs", async () => {
    const [server, route, pool] = [await layer(), await layer(), await layer()];
    const signal = new AbortController().signal;
    expect(await server.scope.withQuerySignal(signal, async () => pool.scope.querySignal())).toBe(signal);
    expect(await route.scope.withHeavyUser(7, async () => pool.scope.heavyUser())).toBe(7);
    // The limit made by one copy runs the work as the user for every copy (PGlite's turns per user).
    route.limit.setUserLimitForTests(new route.limit.UserLimit({ running: 2, waiting: 0, waitMs: 1_000 }));
    expect(await server.limit.heavy(9, async () => pool.scope.heavyUser())).toBe(9);
    // What outlives a request runs outside its scope.
    await server.scope.withQuerySignal(signal, () =>
      route.scope.withHeavyUser(7, async () => {
        expect(pool.scope.outsideRequest(() => [pool.scope.querySignal(), pool.scope.heavyUser()])).toEqual([undefined, undefined]);
      }),
    );
    expect(pool.dbErrors.isQueryCancelled(new server.scope.ClientGoneError())).toBe(true);
  });

  it("share a bearer token's user", async () => {
    const [route, guard] = [await layer(), await layer()];
    const principal = { user: { id: 1, email: "a@b.c", name: "A", role: "staff" }, token: { id: 5, name: "t", scope: "read" } } as never;
    expect(await route.bearer.withTokenPrincipal(principal, async () => guard.bearer.tokenPrincipal())).toBe(principal);
  });
});

describe("the sources keep it so", () => {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
  const sources = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return rel.startsWith("lib/generated") ? [] : sources(rel);
      return /\.(ts|tsx)$/.test(e.name) ? [rel] : [];
    });
  const files = [...sources("app"), ...sources("lib"), ...sources("components"), "server.ts", "proxy.ts", "instrumentation.ts"];

  it("keeps what is global to the process in lib/process-wide.ts (globalThis, Symbol.hasInstance) and the one patched prototype in lib/framework-gaps/", () => {
    const global = /\bglobalThis\b|\.prototype\.\w+\s*=[^=]|Symbol\.hasInstance/;
    const using = files.filter((file) => global.test(fs.readFileSync(path.join(root, file), "utf8")));
    expect(using).toEqual(["lib/framework-gaps/abort-reason-stacks.ts", "lib/process-wide.ts"]);
  });

  it("makes every AsyncLocalStorage process-wide", () => {
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      for (const line of text.split("\n").filter((l) => /new AsyncLocalStorage\b/.test(l))) {
        expect(line, file).toMatch(/processWide\(/);
      }
    }
  });

  it("recognises the console's errors with X.is(), never instanceof (which fails across copies)", () => {
    const parents = files.flatMap((file) => [...fs.readFileSync(path.join(root, file), "utf8").matchAll(/class (\w+) extends (\w+)/g)].map((m) => [m[1]!, m[2]!] as const));
    const branded = new Set(["BrandedError"]);
    for (let grown = true; grown; ) {
      grown = false;
      for (const [name, parent] of parents) if (branded.has(parent) && !branded.has(name)) grown = Boolean(branded.add(name));
    }
    expect(branded).toContain("TooManyRequestsError");
    for (const file of [...files, ...sources("scripts")]) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      for (const m of text.matchAll(/instanceof (\w+)/g)) expect(branded.has(m[1]!), `${file}: instanceof ${m[1]}`).toBe(false);
    }
  });

  it("brands every exported error class", () => {
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      for (const match of text.matchAll(/export class (\w+) extends (\w+)[^{]*\{([\s\S]*?)\n\}/g)) {
        const [, name, parent, body] = match;
        if (!/Error$/.test(name!) && !/Error$/.test(parent!)) continue;
        if (name === "BrandedError") continue;
        expect(parent, `${file}: ${name}`).not.toBe("Error");
        expect(body, `${file}: ${name} has no brand of its own`).toMatch(/static readonly brand: string = "console\.\w+";/);
      }
    }
  });
});
