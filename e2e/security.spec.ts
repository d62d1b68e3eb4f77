import type { APIResponse, Page, Response } from "@playwright/test";
import { expect, signInByApi, test } from "./fixtures";

// The Content Security Policy holds in a real browser (no violation on any page, and Next's
// scripts do run under it), and every kind of answer carries the security headers.

type Violation = { directive: string; blocked: string; source: string };

/** Records CSP violations (the DOM event) and CSP console errors of a page, from its first script on. */
async function watchCsp(page: Page) {
  const messages: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to (load|execute|apply)/i.test(message.text())) {
      messages.push(message.text());
    }
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: Violation[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      w.__csp.push({ directive: e.effectiveDirective, blocked: e.blockedURI, source: `${e.sourceFile}:${e.lineNumber}` });
    });
  });
  return {
    async violations() {
      const events = await page.evaluate(() => (window as unknown as { __csp: Violation[] }).__csp);
      return { events, console: [...messages] };
    },
  };
}

const NONCE = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/;

function expectSecurityHeaders(headers: Record<string, string>, what: string) {
  expect(headers["content-security-policy"], `${what}: CSP`).toMatch(NONCE);
  const csp = headers["content-security-policy"]!;
  for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"]) {
    expect(csp, `${what}: ${directive}`).toContain(directive);
  }
  expect(csp, `${what}: no unsafe-eval in production`).not.toContain("unsafe-eval");
  expect(headers["x-content-type-options"], `${what}: nosniff`).toBe("nosniff");
  expect(headers["referrer-policy"], `${what}: referrer policy`).toBe("same-origin");
  expect(headers["cache-control"], `${what}: no-store`).toContain("no-store");
  // The e2e server is the production build (NODE_ENV=production).
  expect(headers["strict-transport-security"], `${what}: HSTS`).toMatch(/^max-age=\d+; includeSubDomains$/);
}

/** JSON and file answers: the same headers, with a policy that lets nothing load or run (no nonce needed). */
function expectApiSecurityHeaders(headers: Record<string, string>, what: string) {
  expect(headers["content-security-policy"], `${what}: CSP`).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  expect(headers["x-content-type-options"], `${what}: nosniff`).toBe("nosniff");
  expect(headers["referrer-policy"], `${what}: referrer policy`).toBe("same-origin");
  expect(headers["x-frame-options"], `${what}: X-Frame-Options`).toBe("DENY");
  expect(headers["cache-control"], `${what}: no-store`).toContain("no-store");
  expect(headers["strict-transport-security"], `${what}: HSTS`).toMatch(/^max-age=\d+; includeSubDomains$/);
}

async function visit(page: Page, path: string, status: number): Promise<Response> {
  const response = (await page.goto(path))!;
  expect(response.status(), path).toBe(status);
  await page.waitForLoadState("networkidle");
  // Next's runtime ran under the policy (a blocked bootstrap would leave no `window.next`).
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as { next?: { version?: string } }).next?.version)).toBe("string");
  return response;
}

test.describe("Content Security Policy", () => {
  test("no violation on the console's pages, and each response has its own nonce on its scripts", async ({ page }) => {
    const csp = await watchCsp(page);
    const nonces = new Set<string>();
    const check = async (path: string, status: number) => {
      const response = await visit(page, path, status);
      const headers = response.headers();
      expectSecurityHeaders(headers, path);
      const nonce = NONCE.exec(headers["content-security-policy"]!)![1]!;
      expect(nonces.has(nonce), `${path}: a fresh nonce`).toBe(false);
      nonces.add(nonce);
      // Every script the server sent carries this response's nonce (the browser hides the attribute's value from the DOM, not from .nonce).
      // Chunks the page's runtime adds later are not the server's: 'strict-dynamic' lets them run, and the watcher sees any it blocks.
      const sent = await response.text();
      const scripts = (await page.evaluate(() => [...document.querySelectorAll("script")].map((s) => ({ src: s.getAttribute("src") ?? "", full: s.src, nonce: s.nonce })))).filter(
        (s) => !s.src || sent.includes(`src="${s.src.replace(/&/g, "&amp;")}"`),
      );
      expect(scripts.length, `${path}: scripts`).toBeGreaterThan(0);
      for (const script of scripts) expect(script.nonce, `${path}: ${script.full || "inline script"}`).toBe(nonce);
      await page.screenshot({ path: `test-results/screens/csp${path.replace(/[^a-z0-9]+/gi, "-")}.png`, fullPage: true });
    };

    await check("/login", 200);
    await signInByApi(page, "admin");
    await check("/subscribers", 200);
    await check("/branches", 200);
    await check("/branches/new", 200);
    await check("/subscribers/new", 200);
    await check("/no-such-page", 404);
    // Client-side navigation loads more chunks: still nothing blocked.
    await page.goto("/subscribers");
    await page.getByRole("banner").getByRole("link", { name: "Branches" }).click();
    await expect(page).toHaveURL(/\/branches$/);
    await page.waitForLoadState("networkidle");

    const { events, console } = await csp.violations();
    expect(events, "securitypolicyviolation events").toEqual([]);
    expect(console, "CSP errors on the console").toEqual([]);
  });

  test("injected markup cannot run script, and is reported (the watcher above does see violations)", async ({ page }) => {
    const csp = await watchCsp(page);
    await visit(page, "/login", 200);
    // What an HTML injection would try: an inline event handler.
    await page.evaluate(() => {
      document.body.insertAdjacentHTML("beforeend", `<img alt="" src="data:," onerror="window.__injected = true">`);
    });
    await expect.poll(async () => (await csp.violations()).events.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    const { events } = await csp.violations();
    expect(events.map((e) => e.directive)).toContain("script-src-attr");
  });

  test("the 403 page of a staff user has the headers and no violation", async ({ page }) => {
    const csp = await watchCsp(page);
    await signInByApi(page, "staff");
    const response = await visit(page, "/branches/new", 403);
    expectSecurityHeaders(response.headers(), "403 page");
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    const { events, console } = await csp.violations();
    expect(events).toEqual([]);
    expect(console).toEqual([]);
  });
});

test.describe("security headers on API and error answers", () => {
  const expectJson = async (response: APIResponse, status: number, what: string) => {
    expect(response.status(), what).toBe(status);
    expect(response.headers()["content-type"]).toMatch(/^application\/json/);
    expectApiSecurityHeaders(response.headers(), what);
    const body = await response.text();
    expect(body, `${what}: no stack trace`).not.toMatch(/\bat \S+ \(|node_modules/);
  };

  test("signed in: success, 400, 404; anonymous: 401; staff: 403", async ({ page, browser }) => {
    await signInByApi(page, "admin");
    const api = page.context().request;
    await expectJson(await api.get("/api/v1/branches"), 200, "GET /api/v1/branches");
    await expectJson(await api.get("/api/v1/subscribers/export"), 200, "GET export status");
    await expectJson(await api.get("/api/v1/subscribers?page=0"), 400, "page=0");
    await expectJson(await api.get("/api/v1/branches/999999999"), 404, "unknown branch");
    await expectJson(await api.get("/api/health"), 200, "health");

    const anonymous = await browser.newContext();
    try {
      await expectJson(await anonymous.request.get("/api/v1/subscribers"), 401, "anonymous list");
      await expectJson(await anonymous.request.get("/api/v1/no-such-route"), 404, "unknown API path");
      // A method a route does not serve: server.ts's 405 (with Allow), with the API's headers too.
      const notAllowed = await anonymous.request.put("/api/v1/subscribers", { data: {} });
      expect(notAllowed.status()).toBe(405);
      expectApiSecurityHeaders(notAllowed.headers(), "405");
      const redirect = await anonymous.request.get("/branches", { maxRedirects: 0 });
      expect(redirect.status()).toBe(307);
      expect(redirect.headers()["location"]).toBe("/login?callbackUrl=%2Fbranches");
      expectSecurityHeaders(redirect.headers(), "redirect to /login");
    } finally {
      await anonymous.close();
    }

    const staff = await browser.newContext();
    try {
      const staffPage = await staff.newPage();
      await signInByApi(staffPage, "staff");
      await expectJson(
        await staff.request.post("/api/v1/branches", { data: { name: "Not allowed" }, headers: { "content-type": "application/json" } }),
        403,
        "staff creating a branch",
      );
    } finally {
      await staff.close();
    }
  });

  test("Next's static build output keeps its immutable caching", async ({ page }) => {
    await page.goto("/login");
    const src = await page.evaluate(() => document.querySelector<HTMLScriptElement>("script[src]")!.src);
    const response = await page.context().request.get(src);
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toContain("immutable");
  });
});
