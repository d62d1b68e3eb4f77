import { Secret, TOTP } from "otpauth";
import { axeViolations, expect, openRowMenu, test } from "./fixtures";

// Two-factor codes in the browser: a user sets them up by reading the secret from the page (as
// an authenticator app scans it), keeps the recovery codes, and signs in again through the
// form, which asks for the code after the password and keeps the return address; an
// administrator resets them on /users.

const PASSWORD = "copper lantern meadow 58";
/** What an authenticator app shows (RFC 6238's defaults: SHA-1, 6 digits, 30 s). */
const codeOf = (secret: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

test("set up with the page's secret, sign in with a code, admin resets it", async ({ asAdmin: admin, browser }) => {
  const email = `totp.${Date.now()}@example.com`;
  const made = await admin.request.post("/api/v1/users", { data: { name: "Tess Totp", email, role: "staff", password: PASSWORD } });
  expect(made.status()).toBe(201);

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/subscribers/);

  await page.goto("/account");
  await page.getByRole("link", { name: "Set up two-factor" }).click();
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  // The secret is shown only after the current password.
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Set up two-factor" }).click();
  await expect(page.getByRole("img", { name: "QR code of your two-factor secret" })).toBeVisible();
  const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.screenshot({ path: "test-results/screens/two-factor-set-up.png", fullPage: true });
  // Checked in the browser first, in words (its problem key is among the page's client messages).
  await page.getByLabel("Code from the app").fill("12");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Type the 6 digits your app shows.")).toBeVisible();
  await page.getByLabel("Code from the app").fill("000000" === codeOf(secret) ? "111111" : "000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("That code is not right")).toBeVisible();
  const confirmedAt = Date.now();
  await page.getByLabel("Code from the app").fill(codeOf(secret, confirmedAt));
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  // Confirmed: the secret is no longer on the page.
  await expect(page.getByTestId("two-factor-secret")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/two-factor-recovery-codes.png", fullPage: true });
  const recovery = (await codes.first().textContent())!;
  expect(await axeViolations(page)).toEqual([]);
  await context.close();

  // Signing in again, to a page deep in the console: the code is asked for after the password.
  const again = await browser.newContext();
  const tab = await again.newPage();
  await tab.goto("/branches?sort=name");
  await expect(tab).toHaveURL(/\/login\?callbackUrl=/);
  await tab.getByLabel("Email").fill(email);
  await tab.getByLabel("Password").fill(PASSWORD);
  await tab.getByRole("button", { name: "Sign in" }).click();
  const code = tab.getByLabel("Two-factor code");
  await expect(code).toBeVisible();
  await expect(code).toBeFocused();
  await tab.screenshot({ path: "test-results/screens/login-two-factor.png", fullPage: true });
  expect(await axeViolations(tab)).toEqual([]);
  // The code that turned it on is spent: the next one, which the server already accepts (a step
  // either side of its clock), signs in without waiting for it.
  const spent = codeOf(secret, confirmedAt + 30_000);
  await code.fill(spent);
  await tab.getByRole("button", { name: "Sign in" }).click();
  await expect(tab).toHaveURL(/\/branches\?sort=name$/);
  await again.close();

  // A recovery code works once.
  const third = await browser.newContext();
  const other = await third.newPage();
  await other.goto("/login");
  await other.getByLabel("Email").fill(email);
  await other.getByLabel("Password").fill(PASSWORD);
  await other.getByRole("button", { name: "Sign in" }).click();
  // The code just spent is refused as spent, not blamed on the email or password.
  await other.getByLabel("Two-factor code").fill(spent);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByText("That code was already used")).toBeVisible();
  await other.getByLabel("Two-factor code").fill(recovery);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other).toHaveURL(/\/subscribers/);

  // New recovery codes, after the password, copied in one go; the old ones stop working.
  await third.grantPermissions(["clipboard-read", "clipboard-write"]);
  await other.goto("/account/two-factor");
  await expect(other.getByText("9 of 10 recovery codes left")).toBeVisible();
  await other.getByLabel("Password", { exact: true }).first().fill(PASSWORD);
  await other.getByRole("button", { name: "Make new recovery codes" }).click();
  const fresh = other.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(fresh).toHaveCount(10);
  await other.getByRole("button", { name: "Copy codes" }).click();
  await expect(other.getByText("The recovery codes are copied.")).toBeVisible();
  const copied = await other.evaluate(() => navigator.clipboard.readText());
  expect(copied.split("\n")).toEqual(await fresh.allTextContents());
  await other.screenshot({ path: "test-results/screens/two-factor-new-recovery-codes.png", fullPage: true });

  // The administrator resets it: that session ends, and the password alone signs in again.
  await admin.goto(`/users?email=${encodeURIComponent(email)}`);
  await openRowMenu(admin.getByRole("row", { name: /Tess Totp/ }));
  await admin.getByRole("button", { name: "Reset two-factor of Tess Totp" }).click();
  await admin.getByRole("dialog").getByRole("button", { name: "Reset two-factor" }).click();
  await expect(admin.getByRole("button", { name: "Reset two-factor of Tess Totp" })).toHaveCount(0);
  await other.goto("/account");
  await expect(other).toHaveURL(/\/login/);
  await other.getByLabel("Email").fill(email);
  await other.getByLabel("Password").fill(PASSWORD);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other).toHaveURL(/\/account/);
  await third.close();
});
