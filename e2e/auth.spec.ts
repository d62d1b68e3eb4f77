import { expect, test, USERS } from "./fixtures";

test.describe("sign-in", () => {
  for (const role of ["admin", "staff"] as const) {
    test(`${role} signs in through the form and sees their name and role`, async ({ page }) => {
      await page.goto("/login");
      await page.getByLabel("Email").fill(USERS[role].email);
      await page.getByLabel("Password").fill(USERS[role].password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/subscribers$/);
      const header = page.getByRole("banner");
      await expect(header.getByText(USERS[role].name)).toBeVisible();
      await expect(header.getByTestId("user-role")).toHaveText(role === "admin" ? "Administrator" : "Staff");
      await page.screenshot({ path: `test-results/screens/signed-in-${role}.png`, fullPage: true });
    });
  }

  test("a wrong password and an unknown email show the same message", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(USERS.admin.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Invalid email or password.");
    await expect(page).toHaveURL(/\/login/);
    await page.screenshot({ path: "test-results/screens/login-error.png" });

    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Invalid email or password.");
  });

  test("the form validates before sending", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in" }).click();
    // Each error is its field's description (aria-describedby), not only text near it.
    await expect(page.getByRole("textbox", { name: "Email" })).toHaveAccessibleDescription("Enter your email.");
    await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription("Enter your password.");
  });

  test("an anonymous visit lands on /login and comes back after sign-in", async ({ page }) => {
    await page.goto("/subscribers?page=2");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsubscribers%3Fpage%3D2$/);
    await page.getByLabel("Email").fill(USERS.staff.email);
    await page.getByLabel("Password").fill(USERS.staff.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/subscribers\?page=2$/);
  });

  for (const hostile of ["%2F%09%2Fevil.example", "%2F%09%5Cevil.example", "%2F.%2F%2Fevil.example", "https%3A%2F%2Fevil.example%2F", "%2F%0A%FF"]) {
    test(`signing in from /login?callbackUrl=${hostile} stays on the console`, async ({ page }) => {
      const leaving: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith("http://localhost:")) leaving.push(request.url());
      });
      const response = await page.goto(`/login?callbackUrl=${hostile}`);
      expect(response?.status()).toBe(200);
      await page.getByLabel("Email").fill(USERS.staff.email);
      await page.getByLabel("Password").fill(USERS.staff.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).not.toHaveURL(/\/login/);
      await page.waitForLoadState("networkidle");
      expect(new URL(page.url()).hostname).toBe("localhost");
      expect(leaving).toEqual([]);
    });
  }

  test("sign out ends the session, and the old cookie no longer works", async ({ asStaff: page }) => {
    await page.goto("/subscribers");
    const before = await page.context().cookies();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto("/branches");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fbranches/);

    // Replaying the cookie from before signing out gets nowhere either.
    await page.context().addCookies(before);
    const response = await page.request.get("/api/v1/branches");
    expect(response.status()).toBe(401);
  });
});
