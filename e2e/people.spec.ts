import type { Browser, Page } from "@playwright/test";
import { expect, listToolbar, openRowMenu, test, toast, USERS } from "./fixtures";

// People and access in the browser: an admin makes a user with a one-time link, the
// user sets a password from it, signs in and makes an API token on /account; a request with the
// token alone (no cookie, as curl sends it) downloads an export. Then the link is spent, staff
// cannot reach /users, and changing a password ends the other sessions.

const NEW_USER = { name: "Nia Newcomer", email: "nia.newcomer@example.com", password: "lantern orchard velvet 58" };

/** Signs `email` in through the form, in a browser of their own. */
async function signedInElsewhere(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/subscribers$/);
  return { context, page };
}

/** Makes a user through the JSON API with the admin's session (the UI's own creation is tested above). */
async function makeUser(admin: Page, user: { name: string; email: string; role?: "admin" | "staff"; password?: string }) {
  const response = await admin.request.post("/api/v1/users", { data: { role: "staff", ...user } });
  expect(response.status(), await response.text()).toBe(201);
}

test.describe("people and access", () => {
  test("admin makes a user with a link; the user sets a password, signs in, makes a token that downloads an export", async ({ asAdmin: page, browser, playwright, baseURL }) => {
    await page.goto("/users");
    await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
    await page.screenshot({ path: "test-results/screens/users.png", fullPage: true });
    await page.getByRole("link", { name: "New user" }).click();
    await expect(page).toHaveURL(/\/users\/new$/);
    await page.getByLabel("Name").fill(NEW_USER.name);
    await page.getByLabel("Email").fill(NEW_USER.email);
    await page.getByLabel("Role").selectOption("staff");
    await page.screenshot({ path: "test-results/screens/users-new.png", fullPage: true });
    await page.getByRole("button", { name: "Create user" }).click();
    const dialog = page.getByRole("dialog", { name: /Set-password link for Nia Newcomer/ });
    await expect(dialog).toBeVisible();
    const link = await dialog.getByLabel("Link").inputValue();
    expect(link).toMatch(/\/set-password\/[A-Za-z0-9_-]{43}$/);
    await page.screenshot({ path: "test-results/screens/users-new-link.png" });
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByRole("row", { name: /Nia Newcomer/ })).toBeVisible();

    // The new user, in a browser of their own.
    const context = await browser.newContext();
    const nia = await context.newPage();
    await nia.goto(new URL(link).pathname);
    await expect(nia.getByRole("heading", { name: "Set your password" })).toBeVisible();
    await nia.getByLabel("New password", { exact: true }).fill("password1234");
    await expect(nia.getByTestId("password-strength")).toContainText("Too easy to guess");
    await nia.getByLabel("New password", { exact: true }).fill(NEW_USER.password);
    await expect(nia.getByTestId("password-strength")).toContainText(/Good|Strong/);
    await nia.getByLabel("Repeat the password").fill(NEW_USER.password);
    await nia.screenshot({ path: "test-results/screens/set-password.png", fullPage: true });
    await nia.getByRole("button", { name: "Set password" }).click();
    await expect(nia).toHaveURL(/\/login/);
    await nia.getByLabel("Email").fill(NEW_USER.email);
    await nia.getByLabel("Password").fill(NEW_USER.password);
    await nia.getByRole("button", { name: "Sign in" }).click();
    await expect(nia).toHaveURL(/\/subscribers$/);
    // Spent: the link now says so.
    await nia.goto(new URL(link).pathname);
    await expect(nia.getByRole("main").getByRole("alert")).toContainText("already been used");

    // A token on /account (the header's name links there).
    await nia.goto("/subscribers");
    await nia.getByRole("banner").getByRole("link", { name: NEW_USER.name }).click();
    await expect(nia).toHaveURL(/\/account$/);
    await nia.getByLabel("Token name").fill("nightly export");
    await nia.getByLabel("Scope").selectOption("export");
    await nia.getByRole("button", { name: "New token" }).click();
    const token = await nia.getByLabel("New token").inputValue();
    expect(token).toMatch(/^bsc_/);
    await expect(nia.getByRole("row", { name: /nightly export/ })).toBeVisible();
    await nia.screenshot({ path: "test-results/screens/account-token.png", fullPage: true });

    // curl-like: the token alone, no cookie.
    const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    const list = await api.get("/api/v1/subscribers?subscription_status=active");
    expect(list.status()).toBe(200);
    expect((await api.post("/api/v1/subscribers/export?subscription_status=active")).status()).toBe(202);
    await expect.poll(async () => (await (await api.get("/api/v1/subscribers/export")).json()).downloadable_file_status, { timeout: 30_000 }).toBe("completed");
    const file = (await (await api.get("/api/v1/subscribers/export")).json()).downloadable_file as string;
    const download = await api.get(file);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toMatch(/^attachment/);
    expect((await download.text()).split(/\r?\n/)[0]).toMatch(/^\uFEFF?id,first_name/);
    await api.dispose();

    // Revoke: the next request with it is a 401.
    await nia.getByRole("button", { name: "Revoke nightly export" }).click();
    await nia.getByRole("dialog").getByRole("button", { name: "Revoke token" }).click();
    await expect(nia.getByRole("row", { name: /nightly export/ }).getByText("Revoked")).toBeVisible();
    const after = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    expect((await after.get("/api/v1/subscribers")).status()).toBe(401);
    await after.dispose();
    await context.close();

    // Who did what, on /audit.
    await page.goto("/audit?action=user.create");
    await expect(page.getByRole("cell", { name: /^Created the user / }).first()).toBeVisible();
    await page.goto("/audit?action=token.export");
    await expect(page.getByRole("cell").getByText(/^Used the API token .+ for an export$/).first()).toBeVisible();
    await page.screenshot({ path: "test-results/screens/audit-token-export.png", fullPage: true });
  });

  test("changing your password keeps this session and ends the others", async ({ asAdmin: admin, browser }) => {
    // A user of this test's own, with a password set by the admin.
    await admin.goto("/users/new");
    await admin.getByLabel("Name").fill("Pat Passchange");
    await admin.getByLabel("Email").fill("pat.passchange@example.com");
    await admin.getByLabel("Choose their first password myself").check();
    // The browser's check of the length speaks words, not the rule's key.
    await admin.getByLabel("Initial password").fill("short");
    await admin.getByRole("button", { name: "Create user" }).click();
    await expect(admin.getByText("Use at least 12 characters.")).toBeVisible();
    await admin.getByLabel("Initial password").fill("first passphrase river 11");
    await admin.getByRole("button", { name: "Create user" }).click();
    await expect(admin).toHaveURL(/\/users$/);

    const signIn = async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto("/login");
      await page.getByLabel("Email").fill("pat.passchange@example.com");
      await page.getByLabel("Password").fill("first passphrase river 11");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/subscribers$/);
      return { context, page };
    };
    const here = await signIn();
    const elsewhere = await signIn();
    await here.page.goto("/account");
    await here.page.getByLabel("Current password").fill("first passphrase river 11");
    await here.page.getByLabel("New password", { exact: true }).fill("short");
    await here.page.getByRole("button", { name: "Change password" }).click();
    await expect(here.page.getByText("Use at least 12 characters.")).toBeVisible();
    await here.page.getByLabel("New password", { exact: true }).fill("second passphrase meadow 22");
    await here.page.getByLabel("Repeat the new password").fill("second passphrase meadow 22");
    await here.page.getByRole("button", { name: "Change password" }).click();
    await expect(toast(here.page, "Password changed.")).toBeVisible();
    await here.page.screenshot({ path: "test-results/screens/account-password-changed.png", fullPage: true });
    // This session goes on; the other one is over.
    await here.page.goto("/subscribers");
    await expect(here.page).toHaveURL(/\/subscribers$/);
    await elsewhere.page.goto("/subscribers");
    await expect(elsewhere.page).toHaveURL(/\/login/);
    await here.context.close();
    await elsewhere.context.close();
  });

  test("the users list pages, filters and sorts in the URL past ten users", async ({ asAdmin: page }) => {
    for (let i = 1; i <= 12; i++) {
      const n = String(i).padStart(2, "0");
      await makeUser(page, { name: `Listed Person ${n}`, email: `listed${n}@people-e2e.example.com`, role: i % 4 === 0 ? "admin" : "staff" });
    }
    const toolbar = listToolbar(page, "Name");
    const summary = page.getByRole("status").filter({ hasText: /^Showing / });
    await page.goto("/users");
    await expect(summary).toHaveText(/^Showing 1–10 of \d+ users$/);
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await expect(pager).toBeVisible();

    // A filter: the twelve listed people, on two pages.
    await toolbar.search.fill("Listed");
    await expect(page).toHaveURL(/\/users\?name=Listed$/);
    await expect(summary).toHaveText("Showing 1–10 of 12 users");
    await pager.getByRole("link", { name: "2", exact: true }).click();
    await expect(page).toHaveURL(/\/users\?name=Listed&page=2$/);
    await expect(pager.getByRole("link", { name: "2", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(summary).toHaveText("Showing 11–12 of 12 users");
    await expect(page.getByRole("row", { name: /Listed Person 1[12]/ })).toHaveCount(2);
    await page.screenshot({ path: "test-results/screens/users-filtered-page2.png", fullPage: true });

    // A sort link keeps the filter and goes back to page 1; a second click reverses it.
    await page.getByRole("link", { name: /^Email/ }).click();
    await expect(page).toHaveURL(/\/users\?name=Listed&sort=email$/);
    await expect(page.getByRole("columnheader", { name: /Email/ })).toHaveAttribute("aria-sort", "ascending");
    await expect(page.getByRole("row").nth(1)).toContainText("listed01@people-e2e.example.com");
    await page.getByRole("link", { name: /^Email/ }).click();
    await expect(page).toHaveURL(/\/users\?name=Listed&sort=-email$/);
    await expect(page.getByRole("columnheader", { name: /Email/ })).toHaveAttribute("aria-sort", "descending");
    await expect(page.getByRole("row").nth(1)).toContainText("listed12@people-e2e.example.com");

    // The role filter narrows it to the three administrators among them: one page, no pager.
    await (await toolbar.openFilters()).getByRole("combobox", { name: "Role" }).selectOption("admin");
    await expect(page).toHaveURL(/role=admin/);
    await expect(page).toHaveURL(/name=Listed/);
    await expect(summary).toHaveText("Showing 1–3 of 3 users");
    await expect(pager).toHaveCount(0);
    await page.screenshot({ path: "test-results/screens/users-filtered-sorted.png", fullPage: true });
  });

  test("role, deactivation and a password reset through the row's controls; the other browser feels each at once", async ({ asAdmin: page, browser }) => {
    const ROWAN = { name: "Rowan Roles", email: "rowan.roles@example.com", password: "copper lantern meadow 31" };
    await makeUser(page, { name: ROWAN.name, email: ROWAN.email, password: ROWAN.password });
    const rowan = await signedInElsewhere(browser, ROWAN.email, ROWAN.password);
    await page.goto("/users?name=Rowan");
    const row = page.getByRole("row", { name: /Rowan Roles/ });
    const roleCell = row.getByRole("cell").nth(2);
    const activeCell = row.getByRole("cell").nth(4);
    await expect(roleCell).toHaveText("Staff");

    // Make admin: confirmed in a dialog, then the row and Rowan's next request both know it.
    await openRowMenu(row);
    await row.getByRole("button", { name: "Make admin (Rowan Roles)" }).click();
    const makeAdmin = page.getByRole("dialog", { name: "Make Rowan Roles an administrator?" });
    await expect(makeAdmin).toBeVisible();
    await page.screenshot({ path: "test-results/screens/users-make-admin.png" });
    await makeAdmin.getByRole("button", { name: "Make administrator" }).click();
    await expect(makeAdmin).toBeHidden();
    await expect(roleCell).toHaveText("Administrator");
    expect((await rowan.page.goto("/users"))?.status()).toBe(200);

    // Make staff: back again; /users is closed to Rowan on the next request.
    await openRowMenu(row);
    await row.getByRole("button", { name: "Make staff (Rowan Roles)" }).click();
    const makeStaff = page.getByRole("dialog", { name: "Make Rowan Roles staff?" });
    await page.screenshot({ path: "test-results/screens/users-make-staff.png" });
    await makeStaff.getByRole("button", { name: "Make staff" }).click();
    await expect(roleCell).toHaveText("Staff");
    expect((await rowan.page.goto("/users"))?.status()).toBe(403);

    // Deactivate: Rowan's browser is signed out at once.
    await openRowMenu(row);
    await row.getByRole("button", { name: "Deactivate Rowan Roles" }).click();
    const deactivate = page.getByRole("dialog", { name: "Deactivate Rowan Roles?" });
    await expect(deactivate).toContainText("signed out everywhere");
    await page.screenshot({ path: "test-results/screens/users-deactivate.png" });
    await deactivate.getByRole("button", { name: "Deactivate" }).click();
    await expect(activeCell).toHaveText("Deactivated");
    await rowan.page.goto("/subscribers");
    await expect(rowan.page).toHaveURL(/\/login/);
    expect((await rowan.page.request.get("/api/v1/subscribers")).status()).toBe(401);
    // Nor can they sign in again while deactivated.
    await rowan.page.getByLabel("Email").fill(ROWAN.email);
    await rowan.page.getByLabel("Password").fill(ROWAN.password);
    await rowan.page.getByRole("button", { name: "Sign in" }).click();
    await expect(rowan.page).toHaveURL(/\/login/);

    // Reactivate: the old session stays ended; a new sign-in works.
    await openRowMenu(row);
    await row.getByRole("button", { name: "Reactivate Rowan Roles" }).click();
    const reactivate = page.getByRole("dialog", { name: "Reactivate Rowan Roles?" });
    await page.screenshot({ path: "test-results/screens/users-reactivate.png" });
    await reactivate.getByRole("button", { name: "Reactivate" }).click();
    await expect(activeCell).toHaveText("Active");
    await rowan.context.close();
    const again = await signedInElsewhere(browser, ROWAN.email, ROWAN.password);

    // Reset password: the link is shown once, in a dialog; closing it loses it.
    await openRowMenu(row);
    await row.getByRole("button", { name: "Reset password of Rowan Roles" }).click();
    const confirmReset = page.getByRole("dialog", { name: "Reset the password of Rowan Roles?" });
    await expect(confirmReset).toContainText("one-time link (24 hours)");
    await page.screenshot({ path: "test-results/screens/users-reset-confirm.png" });
    await confirmReset.getByRole("button", { name: "Make a link" }).click();
    const linkDialog = page.getByRole("dialog", { name: "Set-password link for Rowan Roles" });
    await expect(linkDialog).toBeVisible();
    const link = await linkDialog.getByLabel("Link").inputValue();
    expect(link).toMatch(/\/set-password\/[A-Za-z0-9_-]{43}$/);
    // Its warning wraps inside the dialog (it sits in the row's nowrap cell): all of it can be read.
    const warning = linkDialog.getByText(/shown only now: copy it before you close this window/);
    expect(await warning.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= el.closest("dialog")!.getBoundingClientRect().right)).toBe(true);
    await page.screenshot({ path: "test-results/screens/users-reset-link.png" });
    await linkDialog.getByRole("button", { name: "Done" }).click();
    await expect(linkDialog).toBeHidden();
    await page.reload();
    expect(await page.content()).not.toContain(new URL(link).pathname);
    // Their password keeps working until the link is used; the link works for them.
    await again.page.goto("/subscribers");
    await expect(again.page).toHaveURL(/\/subscribers$/);
    await again.page.goto(new URL(link).pathname);
    await expect(again.page.getByRole("heading", { name: "Set your password" })).toBeVisible();
    await again.context.close();

    // On your own row: no reset (your password is /account's), role and deactivation disabled.
    await page.goto(`/users?email=${encodeURIComponent(USERS.admin.email)}`);
    const mine = page.getByRole("row", { name: /\(you\)/ });
    await expect(mine).toContainText(USERS.admin.name);
    await openRowMenu(mine);
    await expect(mine.getByRole("button", { name: /Reset password/ })).toHaveCount(0);
    await expect(mine.getByRole("button", { name: /^Make / })).toBeDisabled();
    await expect(mine.getByRole("button", { name: /^Deactivate / })).toBeDisabled();
    await page.screenshot({ path: "test-results/screens/users-own-row.png" });
    await mine.getByRole("link", { name: "Change password" }).click();
    await expect(page).toHaveURL(/\/account$/);
  });

  test("staff get no Users link and a 403 page on /users", async ({ asStaff: page }) => {
    await page.goto("/subscribers");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" })).toHaveCount(0);
    const response = await page.goto("/users");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: /not allowed|403|Forbidden/i })).toBeVisible();
  });

  for (const viewport of [{ width: 1280, height: 800, name: "desktop" }, { width: 390, height: 844, name: "phone" }]) {
    test(`the users and account pages at ${viewport.name} width`, async ({ asAdmin: page }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto("/users");
      await expect(page.getByRole("row", { name: new RegExp(USERS.admin.name) })).toBeVisible();
      await page.screenshot({ path: `test-results/screens/users-${viewport.name}.png`, fullPage: true });
      await page.goto("/account");
      await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
      await page.screenshot({ path: `test-results/screens/account-${viewport.name}.png`, fullPage: true });
    });
  }
});
