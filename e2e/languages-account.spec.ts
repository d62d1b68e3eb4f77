import { expect, signInWith, test } from "./fixtures";

// Choosing one's language on /account (docs/API.md, Languages): the next page is in it, <html lang
// dir> with it; back to following the browser, the browser's language decides again. A user of its
// own, so no other spec's user changes language.

const PASSWORD = "lantern harbour meadow 61";

test("choose Français, then العربية, then follow the browser again", async ({ asAdmin: admin, browser }) => {
  const email = `lang.${Date.now()}@example.com`;
  const made = await admin.request.post("/api/v1/users", { data: { name: "Lina Langues", email, role: "staff", password: PASSWORD } });
  expect(made.status()).toBe(201);

  const context = await browser.newContext({ locale: "en-GB" });
  const page = await context.newPage();
  await signInWith(page, { email, password: PASSWORD });
  await page.goto("/account");
  const html = page.locator("html");
  await expect(html).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();

  // Each language is offered in its own words; "Follow my browser" is chosen while none is stored.
  const picker = page.getByRole("combobox", { name: "Language", exact: true });
  await expect(picker).toHaveValue("");
  await expect(picker.locator("option")).toHaveText(["Follow my browser", "English", "Français", "العربية"]);

  await picker.selectOption({ label: "Français" });
  await page.getByRole("button", { name: "Save language" }).click();
  await expect(html).toHaveAttribute("lang", "fr");
  await expect(html).toHaveAttribute("dir", "ltr");
  await expect(page.getByRole("heading", { level: 1, name: "Votre compte" })).toBeVisible();
  await expect(page).toHaveTitle(/Votre compte/);
  // The choice holds on the next page opened.
  await page.goto("/account/two-factor");
  await expect(html).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("heading", { level: 1, name: "Double authentification" })).toBeVisible();
  await page.goto("/account");

  const langue = page.getByRole("combobox", { name: "Langue", exact: true });
  await expect(langue).toHaveValue("fr");
  await langue.selectOption({ label: "العربية" });
  await page.getByRole("button", { name: "Enregistrer la langue" }).click();
  await expect(html).toHaveAttribute("lang", "ar");
  await expect(html).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1, name: "حسابك" })).toBeVisible();

  const arabic = page.getByRole("combobox", { name: "اللغة", exact: true });
  await expect(arabic).toHaveValue("ar");
  await arabic.selectOption({ value: "" });
  await page.getByRole("button", { name: "حفظ اللغة" }).click();
  // The browser's language again (this context's: en-GB).
  await expect(html).toHaveAttribute("lang", "en");
  await expect(html).toHaveAttribute("dir", "ltr");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Language", exact: true })).toHaveValue("");
  await context.close();

  // With no choice stored, another browser's language decides.
  const french = await browser.newContext({ locale: "fr-FR" });
  const frenchPage = await french.newPage();
  await signInWith(frenchPage, { email, password: PASSWORD });
  await frenchPage.goto("/account");
  await expect(frenchPage.locator("html")).toHaveAttribute("lang", "fr");
  await expect(frenchPage.getByRole("combobox", { name: "Langue", exact: true })).toHaveValue("");
  await french.close();
});
