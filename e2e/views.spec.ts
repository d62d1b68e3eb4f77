import type { Browser, Page } from "@playwright/test";
import { expect, queryOf, signInWith, test, toast } from "./fixtures";

// Saved views in the browser: saved from the filters in force, opened from a clean list, shared,
// opened by a second user, made a default view (and "All subscribers" past it), managed on the
// views page, and the Views menu used from the keyboard. Each test makes its own users, so a
// default view never reaches the other specs' users.

const SCREENS = "test-results/screens";
const PASSWORD = "saved views in the browser 42";

async function newUser(admin: Page, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`;
  const response = await admin.request.post("/api/v1/users", { data: { name, email, role: "staff", password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(201);
  return { email, password: PASSWORD, name };
}

async function signedIn(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWith(page, user);
  return page;
}

const viewsButton = (page: Page) => page.locator("summary", { hasText: /^Views/ });
/** The menu's <details> (its <summary> is the button). */
const disclosure = (page: Page) => viewsButton(page).locator("xpath=..");
const menu = (page: Page) => page.getByRole("navigation", { name: "Saved views" });
/** The ids of the table's rows, in order (each row links its record). */
const rowIds = async (page: Page) =>
  (await page.getByRole("table", { name: "Subscribers" }).locator('tbody a[href^="/subscribers/"]').evaluateAll((links) => links.map((a) => a.getAttribute("href")))).map((h) =>
    Number(h!.split("/").pop()),
  );
const uniq = (ids: number[]) => [...new Set(ids)];

test.describe("saved views", () => {
  test("save from the filters, open from a clean list, share, a second user opens it and makes it their default", async ({ asAdmin: admin, browser }) => {
    test.setTimeout(180_000); // three users' sessions and a dozen pages, on a shared machine
    const stamp = Date.now();
    const vera = await signedIn(browser, await newUser(admin, `Vera Views ${stamp}`));
    const walt = await signedIn(browser, await newUser(admin, `Walt Views ${stamp}`));
    const name = `Pending, by status ${stamp}`;

    // Vera filters the list and saves the filters and sort as a shared view.
    await vera.goto("/subscribers?subscription_status=pending&sort=last_name");
    await expect(viewsButton(vera)).toHaveText(/^Views/);
    await viewsButton(vera).click();
    await expect(menu(vera).getByText("None yet")).toBeVisible();
    await vera.getByRole("textbox", { name: "Name", exact: true }).fill(name);
    await vera.getByRole("checkbox", { name: "Share with everyone" }).check();
    await vera.getByRole("button", { name: "Save view" }).click();
    await expect(toast(vera, `View “${name}” saved.`)).toBeVisible();
    // The address is the view's now: the menu names it.
    await expect(viewsButton(vera)).toHaveText(new RegExp(`^Views: ${name}`));
    await expect(menu(vera).getByRole("link", { name })).toHaveAttribute("aria-current", "page");
    await vera.screenshot({ path: `${SCREENS}/views-menu-saved.png` });

    // From a clean list, the view is one click: the same address, so the same rows as its link.
    await vera.goto("/subscribers?view=all");
    await expect(viewsButton(vera)).toHaveText(/^Views\s*▾?$/);
    await viewsButton(vera).click();
    await menu(vera).getByRole("link", { name }).click();
    await expect(vera).toHaveURL(/\/subscribers\?/);
    expect(queryOf(vera)).toMatchObject({ subscription_status: "pending", sort: "last_name" });
    await expect(viewsButton(vera)).toHaveText(new RegExp(`^Views: ${name}`));
    const api = (await (await vera.request.get("/api/v1/subscribers?subscription_status=pending&sort=last_name")).json()) as { data: { id: number }[] };
    expect(uniq(await rowIds(vera))).toEqual(api.data.map((s) => s.id));
    // The export panel says whose filters it exports.
    await expect(vera.getByRole("region", { name: /Export file/ })).toContainText(`The view “${name}”`);

    // Walt sees it under the shared views, opens it, and gets the same rows.
    await walt.goto("/subscribers");
    await viewsButton(walt).click();
    await expect(menu(walt).getByText("Shared with everyone")).toBeVisible();
    await menu(walt).getByRole("link", { name: new RegExp(`^${name} by Vera Views`) }).click();
    expect(queryOf(walt)).toMatchObject({ subscription_status: "pending", sort: "last_name" });
    expect(uniq(await rowIds(walt))).toEqual(api.data.map((s) => s.id));

    // He makes it his default: the bare list now opens on it; "All subscribers" is the way back.
    await viewsButton(walt).click();
    await walt.getByRole("button", { name: `Open the list with “${name}” by default` }).click();
    await expect(toast(walt, "Default view set.")).toBeVisible();
    await walt.goto("/subscribers");
    await expect(walt).toHaveURL(/subscription_status=pending/);
    await expect(viewsButton(walt)).toHaveText(new RegExp(`^Views: ${name}`));
    await viewsButton(walt).click();
    await expect(menu(walt).getByRole("link", { name: new RegExp(`^${name} \\(default\\)`) })).toBeVisible();
    await menu(walt).getByRole("link", { name: "All subscribers" }).click();
    await expect(walt).toHaveURL(/\/subscribers\?view=all$/);
    await expect(viewsButton(walt)).toHaveText(/^Views\s*▾?$/);
    // Removing the last filter does not fall back into the default view either.
    await walt.goto("/subscribers?subscription_status=pending");
    await walt.getByRole("link", { name: "Clear filters" }).click();
    await expect(walt).toHaveURL(/\/subscribers\?view=all$/);

    // He may not change Vera's view; she renames and deletes it on the views page.
    await walt.goto("/views?resource=subscribers");
    await expect(walt.getByRole("heading", { name })).toBeVisible();
    await expect(walt.getByRole("button", { name: `Delete ${name}` })).toHaveCount(0);
    await vera.goto("/views?resource=subscribers");
    await vera.screenshot({ path: `${SCREENS}/views-page.png`, fullPage: true });
    await vera.getByRole("textbox", { name: `Name of ${name}` }).fill(`${name} (renamed)`);
    await vera.getByRole("button", { name: `Rename ${name}` }).click();
    await expect(toast(vera, `View “${name} (renamed)” saved.`)).toBeVisible();
    await vera.getByRole("button", { name: `Delete ${name} (renamed)` }).click();
    const dialog = vera.getByRole("dialog", { name: `Delete the view “${name} (renamed)”?` });
    await expect(dialog).toContainText("it goes for everyone");
    await dialog.getByRole("button", { name: "Delete view" }).click();
    await expect(toast(vera, `View “${name} (renamed)” deleted.`)).toBeVisible();
    // Walt's default went with it: his bare list is the whole list again.
    await walt.goto("/subscribers");
    await expect(walt).toHaveURL(/\/subscribers$/);
    await vera.context().close();
    await walt.context().close();
  });

  test("the Views menu from the keyboard: Enter opens it, Tab walks its links, Escape closes it back on its button", async ({ asAdmin: admin, browser }) => {
    const stamp = Date.now();
    const user = await newUser(admin, `Kim Keys ${stamp}`);
    const page = await signedIn(browser, user);
    const made = await page.request.post("/api/v1/views", { data: { resource: "branches", name: `Keyed ${stamp}`, query: "sort=name" } });
    expect(made.status()).toBe(201);

    await page.goto("/branches");
    await viewsButton(page).focus();
    await page.keyboard.press("Enter");
    await expect(disclosure(page)).toHaveJSProperty("open", true);
    await page.keyboard.press("Tab");
    await expect(menu(page).getByRole("link", { name: "All branches" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(menu(page).getByRole("link", { name: `Keyed ${stamp}` })).toBeFocused();
    await page.screenshot({ path: `${SCREENS}/views-menu-keyboard.png` });
    await page.keyboard.press("Escape");
    await expect(disclosure(page)).toHaveJSProperty("open", false);
    await expect(viewsButton(page)).toBeFocused();
    // Space opens it too; Enter on a view's link opens the view.
    await page.keyboard.press(" ");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/branches\?sort=name$/);
    await expect(viewsButton(page)).toHaveText(new RegExp(`^Views: Keyed ${stamp}`));
    // At phone width the menu stays on screen beside the filters.
    await page.setViewportSize({ width: 390, height: 844 });
    await viewsButton(page).click();
    await expect(menu(page).getByRole("link", { name: `Keyed ${stamp}` })).toBeInViewport();
    await page.screenshot({ path: `${SCREENS}/views-menu-phone.png` });
    await page.context().close();
  });
});
