import { expect, test, USERS } from "./fixtures";

// People and access in the browser (issue 15): an admin makes a user with a one-time link, the
// user sets a password from it, signs in and makes an API token on /account; a request with the
// token alone (no cookie, as curl sends it) downloads an export. Then the link is spent, staff
// cannot reach /users, and changing a password ends the other sessions.

const NEW_USER = { name: "Nia Newcomer", email: "nia.newcomer@example.com", password: "lantern orchard velvet 58" };

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
    await expect(page.getByRole("cell", { name: "user.create" }).first()).toBeVisible();
    await page.goto("/audit?action=token.export");
    await expect(page.getByRole("cell", { name: "token.export" }).first()).toBeVisible();
    await page.screenshot({ path: "test-results/screens/audit-token-export.png", fullPage: true });
  });

  test("changing your password keeps this session and ends the others", async ({ asAdmin: admin, browser }) => {
    // A user of this test's own, with a password set by the admin.
    await admin.goto("/users/new");
    await admin.getByLabel("Name").fill("Pat Passchange");
    await admin.getByLabel("Email").fill("pat.passchange@example.com");
    await admin.getByLabel("Choose their first password myself").check();
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
    await here.page.getByLabel("New password", { exact: true }).fill("second passphrase meadow 22");
    await here.page.getByLabel("Repeat the new password").fill("second passphrase meadow 22");
    await here.page.getByRole("button", { name: "Change password" }).click();
    await expect(here.page.getByText("Password changed.")).toBeVisible();
    await here.page.screenshot({ path: "test-results/screens/account-password-changed.png", fullPage: true });
    // This session goes on; the other one is over.
    await here.page.goto("/subscribers");
    await expect(here.page).toHaveURL(/\/subscribers$/);
    await elsewhere.page.goto("/subscribers");
    await expect(elsewhere.page).toHaveURL(/\/login/);
    await here.context.close();
    await elsewhere.context.close();
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
