import type { Browser, Page } from "@playwright/test";
import { e2eSsoPort } from "../tools/env";
import { axeViolations, expect, test } from "./fixtures";
import { SSO_BRANCH } from "./sso-accounts";

// Single sign-on in the browser, against a real OpenID provider (oidc-provider, started by
// scripts/e2e-server.mjs --sso beside the second build this spec talks to): through the
// console's button and the provider's own sign-in page, for an administrator's group, a staff
// group with a branch group, no group, an unverified email and a user the console already knew;
// a tampered answer and an authorization request without PKCE are refused.

const SSO_ORIGIN = `http://localhost:${e2eSsoPort()}`;
test.use({ baseURL: SSO_ORIGIN });

const BUTTON = "Sign in with Test Directory";

/** A new browser at /login (optionally with a return address), through the button to the provider's sign-in page, signed in there as `login`. */
async function signInThroughProvider(browser: Browser, login: string, path = "/login") {
  const context = await browser.newContext({ baseURL: SSO_ORIGIN });
  const page = await context.newPage();
  await page.goto(path);
  await page.getByRole("button", { name: BUTTON }).click();
  // The provider's own page (another origin).
  await expect(page.locator('input[name="login"]')).toBeVisible();
  expect(new URL(page.url()).origin).not.toBe(SSO_ORIGIN);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  return { context, page };
}

const sessionOf = async (page: Page) => (await (await page.request.get("/api/auth/session")).json()) as { user?: { name: string; email: string; role: string } };

test("the login page offers single sign-on beside the password form, and passes axe", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: BUTTON })).toBeVisible();
  await expect(page.getByLabel("Password")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/login-sso.png", fullPage: true });
  expect(await axeViolations(page)).toEqual([]);
});

test("an existing user signs in as themself, linked by the verified email, and comes back where they were going", async ({ browser }) => {
  const { context, page } = await signInThroughProvider(browser, "ada", "/login?callbackUrl=%2Fbranches%3Fsort%3Dname");
  await expect(page).toHaveURL(`${SSO_ORIGIN}/branches?sort=name`);
  // The console's own name for them stays; the directory's groups make them an administrator.
  expect((await sessionOf(page)).user).toEqual({ name: "Ada Admin", email: "admin@example.com", role: "admin" });
  await context.close();
});

test("the admin group makes a new administrator, of every branch", async ({ browser }) => {
  const olu = await signInThroughProvider(browser, "olu");
  await expect(olu.page).toHaveURL(`${SSO_ORIGIN}/subscribers`);
  expect((await sessionOf(olu.page)).user).toMatchObject({ email: "olu.okafor@example.com", role: "admin" });
  await olu.page.goto("/users?email=olu.okafor");
  await expect(olu.page.getByRole("row").filter({ hasText: "Olu Okafor" })).toContainText("Every branch");
  await olu.context.close();
});

test("a staff group with a branch group makes a staff member who sees that branch only", async ({ asAdmin: admin, browser }) => {
  // Made first, so that the branch group names a branch the console has.
  const existing = (await (await admin.request.get(`/api/v1/branches?name=${encodeURIComponent(SSO_BRANCH)}`)).json()) as { data: { name: string }[] };
  if (!existing.data.some((b) => b.name === SSO_BRANCH)) expect((await admin.request.post("/api/v1/branches", { data: { name: SSO_BRANCH } })).status()).toBe(201);

  const sam = await signInThroughProvider(browser, "sam");
  await expect(sam.page).toHaveURL(`${SSO_ORIGIN}/subscribers`);
  expect((await sessionOf(sam.page)).user).toMatchObject({ email: "sam.sato@example.com", role: "staff" });
  const branches = (await (await sam.page.request.get("/api/v1/branches")).json()) as { data: { name: string }[] };
  expect(branches.data.map((b) => b.name)).toEqual([SSO_BRANCH]);
  await sam.page.goto("/branches");
  await expect(sam.page.getByRole("cell", { name: SSO_BRANCH })).toBeVisible();
  await sam.context.close();
});

// One test each: a whole sign-in at the provider, two axe runs and the audit log take a while.
for (const [login, email, heading] of [
  ["nog", "noah.group@example.com", "Your account is not in a group that may use the console"],
  ["unv", "una.verified@example.com", "Your email address is not verified"],
] as const) {
  test(`${login === "nog" ? "no group" : "an unverified email"} is refused on a page that says why, which passes axe, and is audited`, async ({ asAdmin: admin, browser }) => {
    const { context, page } = await signInThroughProvider(browser, login);
    await expect(page).toHaveURL(/\/login\/refused\?reason=/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    expect((await sessionOf(page)).user).toBeUndefined();
    await page.screenshot({ path: `test-results/screens/sso-refused-${login}.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Back to sign-in" }).click();
    await expect(page.getByRole("button", { name: BUTTON })).toBeVisible();
    await context.close();
    await admin.goto("/audit?action=auth.sso_refused");
    await expect(admin.getByRole("row").filter({ hasText: email }).first()).toBeVisible();
  });
}

/** Changes the authorization request on its way to the provider (the browser's navigation there). */
async function tamperAuthorization(page: Page, change: (params: URLSearchParams) => void) {
  await page.route(/\/auth\?.*code_challenge=/, (route) => {
    const url = new URL(route.request().url());
    change(url.searchParams);
    return route.continue({ url: url.toString() });
  });
}

test("a state that is not the browser's own is refused by the console, and a request without PKCE by the provider", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: SSO_ORIGIN });
  const page = await context.newPage();
  const callbacks: URL[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/auth/callback/oidc")) callbacks.push(new URL(request.url()));
  });

  // The provider sends back the state it was given: another one than the browser's cookie holds.
  await tamperAuthorization(page, (params) => params.set("state", "not-the-one-sent"));
  await page.goto("/login");
  await page.getByRole("button", { name: BUTTON }).click();
  await page.locator('input[name="login"]').fill("olu");
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await expect(page).toHaveURL(/\/login\?.*error=OAuthCallback/);
  expect(callbacks.at(-1)?.searchParams.get("state")).toBe("not-the-one-sent");
  await expect(page.getByRole("alert").filter({ hasText: "did not finish" })).toBeVisible();
  expect((await sessionOf(page)).user).toBeUndefined();
  await page.screenshot({ path: "test-results/screens/sso-callback-refused.png", fullPage: true });
  expect(await axeViolations(page)).toEqual([]);
  await page.unrouteAll();

  // The challenge is dropped on the way: the provider refuses the request and says why.
  await tamperAuthorization(page, (params) => {
    params.delete("code_challenge");
    params.delete("code_challenge_method");
  });
  await page.goto("/login");
  await page.getByRole("button", { name: BUTTON }).click();
  await expect(page).toHaveURL(/\/login\?.*error=Callback/);
  expect(callbacks.at(-1)?.searchParams.get("error")).toBe("invalid_request");
  expect(callbacks.at(-1)?.searchParams.get("error_description")).toMatch(/PKCE/);
  await expect(page.getByRole("alert").filter({ hasText: "did not finish" })).toBeVisible();
  expect((await sessionOf(page)).user).toBeUndefined();
  await context.close();
});
