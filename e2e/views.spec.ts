import fs from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { expect, hydrated, queryOf, signInWith, test, toast } from "./fixtures";

// Saved views in the browser: saved from the filters in force, opened from a clean list, shared,
// opened by a second user, made a default view (and "All subscribers" past it), managed on the
// views page (by its owner, and a shared one by an administrator), the export and a bulk change
// from a view, and the Views menu used from the keyboard, its Save form included. Each test makes
// its own users (and subscribers), so a default view never reaches the other specs' users.

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
/** The ids of the table's rows, in order (each row links its record, with the list's address to go back to). */
const rowIds = async (page: Page) =>
  (await page.getByRole("table", { name: "Subscribers" }).locator('tbody a[href^="/subscribers/"]').evaluateAll((links) => links.map((a) => a.getAttribute("href")))).map((h) =>
    Number(new URL(h!, "http://localhost").pathname.split("/").pop()),
  );
const uniq = (ids: number[]) => [...new Set(ids)];

test.describe("saved views", () => {
  test("save from the filters, open from a clean list, share, a second user opens it and makes it their default", async ({ asAdmin: admin, browser }) => {
    test.setTimeout(180_000); // three users' sessions and a dozen pages, on a shared machine
    const stamp = Date.now();
    const vera = await signedIn(browser, await newUser(admin, `Vera Views ${stamp}`));
    const walt = await signedIn(browser, await newUser(admin, `Walt Views ${stamp}`));
    const name = `Pending, by status ${stamp}`;

    // Vera filters the list, picks its columns, and saves the filters, sort and columns as a shared view.
    const columns = "last_name,first_name,subscription_status";
    await vera.goto(`/subscribers?subscription_status=pending&sort=last_name&columns=${columns}`);
    await expect(viewsButton(vera)).toHaveText(/^Views/);
    await viewsButton(vera).click();
    await expect(menu(vera).getByText("None yet")).toBeVisible();
    await vera.getByRole("textbox", { name: "Name", exact: true }).fill(name);
    await vera.getByRole("checkbox", { name: "Share with everyone" }).check();
    await vera.getByRole("button", { name: "Save view" }).click();
    await expect(toast(vera, `View “${name}” saved.`)).toBeVisible();
    const saved = ((await (await vera.request.get("/api/v1/views?resource=subscribers")).json()) as { data: { name: string }[] }).data.find((v) => v.name === name);
    expect(saved).toMatchObject({ query: "subscription_status=pending&sort=last_name", columns: columns.split(","), shared: true, problem: null });
    // The address is the view's now: the menu names it.
    await expect(viewsButton(vera)).toHaveText(new RegExp(`^Views: ${name}`));
    await expect(menu(vera).getByRole("link", { name })).toHaveAttribute("aria-current", "page");
    await vera.screenshot({ path: `${SCREENS}/views-menu-saved.png` });

    // From a clean list, the view is one click: the same address, so the same rows as its link.
    await vera.goto("/subscribers?view=all");
    await expect(viewsButton(vera)).toHaveText(/^Views\s*▾?$/);
    await viewsButton(vera).click();
    await menu(vera).getByRole("link", { name }).click();
    await expect(vera).toHaveURL(/\/subscribers\?.*subscription_status=pending/);
    expect(queryOf(vera)).toEqual({ subscription_status: "pending", sort: "last_name", columns });
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
    await expect(walt).toHaveURL(/subscription_status=pending/);
    // The view as Vera saved it: her filters, sort and columns.
    expect(queryOf(walt)).toEqual({ subscription_status: "pending", sort: "last_name", columns });
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
    await vera.getByRole("button", { name: `Rename ${name}` }).click();
    await vera.getByRole("textbox", { name: `New name of the view “${name}”` }).fill(`${name} (renamed)`);
    await vera.getByRole("button", { name: "Save name" }).click();
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
  test("the export and a bulk change from a view take exactly its filters; the export panel names the view", async ({ asAdmin: admin, browser }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const uma = await signedIn(browser, await newUser(admin, `Uma Views ${stamp}`));
    // Her own subscribers: two the view holds, and two it does not (mandatory already, or active).
    const family = `Viewfam${stamp}`;
    const ids: number[] = [];
    for (const [i, [subscription_status, is_mandatory]] of ([["pending", false], ["pending", false], ["pending", true], ["active", false]] as const).entries()) {
      const s = `${stamp}${i}`;
      const made = await uma.request.post("/api/v1/subscribers", {
        data: { first_name: `Uma${i}`, last_name: family, email: `uma.${s}@example.com`, mobile: `+44 7400 ${s.slice(-6)}`, subscription_status, is_mandatory },
      });
      expect(made.status(), await made.text()).toBe(201);
      ids.push(((await made.json()) as { id: number }).id);
    }
    const name = `Pending, not mandatory ${stamp}`;
    const query = `q=${family}&subscription_status=pending&is_mandatory=false&sort=first_name`;
    expect((await uma.request.post("/api/v1/views", { data: { resource: "subscribers", name, query, columns: ["first_name", "last_name", "subscription_status", "is_mandatory"] } })).status()).toBe(201);

    await uma.goto("/subscribers?view=all");
    await viewsButton(uma).click();
    await menu(uma).getByRole("link", { name }).click();
    await expect(viewsButton(uma)).toHaveText(new RegExp(`^Views: ${name}`));
    expect(uniq(await rowIds(uma))).toEqual(ids.slice(0, 2));
    const panel = uma.getByRole("region", { name: /Export file/ });
    await expect(panel).toContainText(`The view “${name}”: exactly its filters.`);
    await expect(panel).toContainText("2 subscribers match the current filters and will be exported.");

    // The export: the view's filters (its sort is the list's order, not a filter), and its rows only.
    await panel.getByRole("button", { name: "Request export" }).click();
    await expect(toast(uma, "Export requested. The file is being prepared.")).toBeVisible();
    const status = (await (await uma.request.get("/api/v1/subscribers/export")).json()) as { filters: Record<string, string> };
    expect(status.filters).toEqual({ q: family, subscription_status: "pending", is_mandatory: "false" });
    await expect(panel.getByRole("heading", { name: "Export file Completed" })).toBeVisible({ timeout: 30_000 });
    const [download] = await Promise.all([uma.waitForEvent("download"), panel.getByRole("link", { name: "Download" }).click()]);
    const [, ...rows] = parse(fs.readFileSync((await download.path())!), { bom: true }) as string[][];
    expect(rows.map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(ids.slice(0, 2));

    // A bulk change of every row: the view's two, confirmed with the view's filters, and back to the view.
    await uma.getByRole("table", { name: "Subscribers" }).locator("tbody tr").first().getByRole("checkbox").check();
    await uma.getByRole("checkbox", { name: "Select all 2 matching" }).check();
    await uma.getByRole("button", { name: "Set mandatory to Yes" }).click();
    await expect(uma.getByRole("heading", { name: "2 subscribers will change: set mandatory to yes" })).toBeVisible();
    await expect(uma.getByRole("list", { name: "The change's filters" }).getByRole("listitem")).toHaveCount(3);
    await (await hydrated(uma.getByRole("button", { name: "Change 2 subscribers" }))).click();
    await expect(toast(uma, "2 subscribers changed.")).toBeVisible();
    await expect(uma).toHaveURL(/\/subscribers\?q=/);
    expect(queryOf(uma)).toMatchObject({ q: family, subscription_status: "pending", is_mandatory: "false", sort: "first_name", columns: "first_name,last_name,subscription_status,is_mandatory" });
    await expect(viewsButton(uma)).toHaveText(new RegExp(`^Views: ${name}`));
    const after = (await (await uma.request.get(`/api/v1/subscribers?q=${family}&sort=id`)).json()) as { data: { id: number; is_mandatory: boolean; subscription_status: string }[] };
    expect(after.data.map((s) => [s.id, s.is_mandatory])).toEqual([[ids[0], true], [ids[1], true], [ids[2], true], [ids[3], false]]);
    await uma.context().close();
  });

  test("the owner updates a view to the list's current filters from the menu; an administrator renames a shared one", async ({ asAdmin: admin, browser }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const owen = await signedIn(browser, await newUser(admin, `Owen Views ${stamp}`));
    const name = `Owen's list ${stamp}`;
    expect((await owen.request.post("/api/v1/views", { data: { resource: "subscribers", name, query: "subscription_status=pending", shared: true } })).status()).toBe(201);

    // The list now filtered otherwise: Manage views… carries this address to the views page.
    await owen.goto("/subscribers?subscription_status=expired&sort=last_name");
    await expect(viewsButton(owen)).toHaveText(/^Views\s*▾?$/);
    await viewsButton(owen).click();
    await owen.getByRole("link", { name: "Manage views…" }).click();
    await expect(owen).toHaveURL(/\/views\?resource=subscribers&back=/);
    await expect(owen.getByRole("list", { name: "Filters and sort of the list you came from" })).toHaveText(/Status: Expired\s*Sort: Last name/);
    await owen.getByRole("button", { name: "Update to the list’s current filters" }).click();
    await expect(toast(owen, `View “${name}” saved.`)).toBeVisible();
    await expect(owen.getByRole("listitem").filter({ has: owen.getByRole("heading", { name }) })).toContainText(/Status: Expired\s*Sort: Last name/);
    await owen.getByRole("link", { name: "Back to the list" }).click();
    expect(queryOf(owen)).toEqual({ subscription_status: "expired", sort: "last_name" });
    await expect(viewsButton(owen)).toHaveText(new RegExp(`^Views: ${name}`));

    // An administrator renames the shared view on the views page; its owner sees the new name.
    await admin.goto("/views?resource=subscribers");
    await admin.getByRole("button", { name: `Rename ${name}` }).click();
    await admin.getByRole("textbox", { name: `New name of the view “${name}”` }).fill(`${name} (by an admin)`);
    await admin.getByRole("button", { name: "Save name" }).click();
    await expect(toast(admin, `View “${name} (by an admin)” saved.`)).toBeVisible();
    await owen.reload();
    await expect(viewsButton(owen)).toHaveText(new RegExp(`^Views: ${name} \\(by an admin\\)`));
    await admin.getByRole("button", { name: `Delete ${name} (by an admin)` }).click();
    await admin.getByRole("dialog", { name: `Delete the view “${name} (by an admin)”?` }).getByRole("button", { name: "Delete view" }).click();
    await expect(toast(admin, `View “${name} (by an admin)” deleted.`)).toBeVisible();
    await owen.reload();
    await expect(viewsButton(owen)).toHaveText(/^Views\s*▾?$/);
    await owen.context().close();
  });

  test("rename, update to the current filters and delete from the Views menu; Edit from the keyboard; nothing overflows on a phone", async ({ asAdmin: admin, browser }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const page = await signedIn(browser, await newUser(admin, `Mia Menu ${stamp}`));
    const name = `Menu edits ${stamp}`;
    const renamed = `${name} (renamed)`;
    expect((await page.request.post("/api/v1/views", { data: { resource: "subscribers", name, query: "subscription_status=pending" } })).status()).toBe(201);
    const stored = async (n: string) =>
      ((await (await page.request.get("/api/v1/views?resource=subscribers")).json()) as { data: { name: string; query: string }[] }).data.find((v) => v.name === n);

    // On the view itself: Edit reveals rename, sharing, default and delete, not "Update" (these are its filters).
    await page.goto("/subscribers?subscription_status=pending");
    await expect(viewsButton(page)).toHaveText(new RegExp(`^Views: ${name}`));
    await viewsButton(page).click();
    const edit = menu(page).getByRole("button", { name: `Edit view “${name}”` });
    await expect(edit).toHaveAttribute("aria-expanded", "false");
    await edit.click();
    await expect(edit).toHaveAttribute("aria-expanded", "true");
    await expect(menu(page).getByRole("button", { name: "Stop sharing" }).or(menu(page).getByRole("button", { name: "Share with everyone" }))).toBeVisible();
    await expect(menu(page).getByRole("button", { name: "Update to the list’s current filters" })).toHaveCount(0);
    await page.getByRole("button", { name: `Rename ${name}` }).click();
    await page.getByRole("textbox", { name: `New name of the view “${name}”` }).fill(renamed);
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(toast(page, `View “${renamed}” saved.`)).toBeVisible();
    await expect(viewsButton(page)).toHaveText(new RegExp(`^Views: ${renamed.replace(/[()]/g, "\\$&")}`));
    expect(await stored(renamed)).toMatchObject({ query: "subscription_status=pending" });

    // Another filter: "Update" gives the view the list's filters and sort; the menu then names it.
    await page.goto("/subscribers?subscription_status=expired&sort=last_name");
    await expect(viewsButton(page)).toHaveText(/^Views\s*▾?$/);
    await viewsButton(page).click();
    await menu(page).getByRole("button", { name: `Edit view “${renamed}”` }).click();
    await menu(page).getByRole("button", { name: "Update to the list’s current filters" }).click();
    await expect(toast(page, `View “${renamed}” saved.`)).toBeVisible();
    await expect(viewsButton(page)).toHaveText(new RegExp(`^Views: ${renamed.replace(/[()]/g, "\\$&")}`));
    expect(await stored(renamed)).toMatchObject({ query: "subscription_status=expired&sort=last_name" });

    // Nothing overflows, on a desktop and on a phone, with a view's actions open.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.reload();
      await viewsButton(page).click();
      await menu(page).getByRole("button", { name: `Edit view “${renamed}”` }).click();
      await expect(page.getByRole("button", { name: `Delete ${renamed}` })).toBeVisible();
      const panel = disclosure(page).locator(":scope > div");
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `${SCREENS}/views-menu-edit-${width}.png` });
    }

    // Delete, confirmed naming the view; Escape in the confirmation closes it alone.
    await page.getByRole("button", { name: `Delete ${renamed}` }).click();
    const dialog = page.getByRole("dialog", { name: `Delete the view “${renamed}”?` });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(disclosure(page)).toHaveJSProperty("open", true);
    await page.getByRole("button", { name: `Delete ${renamed}` }).click();
    await dialog.getByRole("button", { name: "Delete view" }).click();
    await expect(toast(page, `View “${renamed}” deleted.`)).toBeVisible();
    await expect(menu(page).getByRole("link", { name: renamed })).toHaveCount(0);
    expect(await stored(renamed)).toBeUndefined();

    // From the keyboard: Tab reaches a view's Edit, Enter and Space open and close it, Escape closes the menu.
    expect((await page.request.post("/api/v1/views", { data: { resource: "branches", name: `Keyed edit ${stamp}`, query: "sort=name" } })).status()).toBe(201);
    await page.goto("/branches?view=all");
    await viewsButton(page).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await expect(menu(page).getByRole("link", { name: "All branches" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(menu(page).getByRole("link", { name: `Keyed edit ${stamp}` })).toBeFocused();
    await page.keyboard.press("Tab");
    const keyedEdit = menu(page).getByRole("button", { name: `Edit view “Keyed edit ${stamp}”` });
    await expect(keyedEdit).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(keyedEdit).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press(" ");
    await expect(keyedEdit).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press(" ");
    const keyedName = page.getByRole("button", { name: `Rename Keyed edit ${stamp}` });
    await expect(keyedName).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(keyedName).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(disclosure(page)).toHaveJSProperty("open", false);
    await expect(viewsButton(page)).toBeFocused();
    await page.context().close();
  });

  test("the Save form from the keyboard: Tab to the name, Space shares, Enter saves; Escape from the form closes the menu", async ({ asAdmin: admin, browser }) => {
    const stamp = Date.now();
    const page = await signedIn(browser, await newUser(admin, `Kay Keys ${stamp}`));
    const name = `Typed ${stamp}`;
    await page.goto("/branches?name=north&sort=-name");
    await viewsButton(page).focus();
    await page.keyboard.press("Enter");
    await expect(disclosure(page)).toHaveJSProperty("open", true);
    const field = page.getByRole("textbox", { name: "Name", exact: true });
    // Tab walks the menu's links to its form.
    for (let i = 0; i < 30 && !(await field.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(field).toBeFocused();
    // Escape from inside the form closes the menu, back on its button; Enter opens it again.
    await page.keyboard.press("Escape");
    await expect(disclosure(page)).toHaveJSProperty("open", false);
    await expect(viewsButton(page)).toBeFocused();
    await page.keyboard.press("Enter");
    for (let i = 0; i < 30 && !(await field.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(field).toBeFocused();
    await page.keyboard.type(name);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("checkbox", { name: "Share with everyone" })).toBeFocused();
    await page.keyboard.press(" ");
    await expect(page.getByRole("checkbox", { name: "Share with everyone" })).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Save view" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(toast(page, `View “${name}” saved.`)).toBeVisible();
    await expect(viewsButton(page)).toHaveText(new RegExp(`^Views: ${name}`));
    const saved = ((await (await page.request.get("/api/v1/views?resource=branches")).json()) as { data: { name: string; query: string; shared: boolean; columns: unknown }[] }).data.find((v) => v.name === name);
    expect(saved).toMatchObject({ query: "name=north&sort=-name", shared: true, columns: null });
    await page.context().close();
  });
  test("a view reads as chips, is renamed in place, its link copied, and opens with the columns in the order it was saved", async ({ asAdmin: admin, browser }) => {
    const stamp = Date.now();
    const page = await signedIn(browser, await newUser(admin, `Cleo Chips ${stamp}`));
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const headers = () => page.getByRole("table", { name: "Subscribers" }).locator("thead th a.sort-link").evaluateAll((links) => links.map((a) => a.firstChild?.textContent));

    // Saved from a list showing its own columns: the view opens them in that order, not the fields' catalogue order.
    await page.goto("/subscribers?subscription_status=active&country_name=Germany&sort=-created_at");
    // The table streams in after the page: wait for its headers.
    await expect.poll(async () => (await headers()).length).toBeGreaterThan(5);
    const shown = await headers();
    await viewsButton(page).click();
    await page.getByRole("textbox", { name: "Name", exact: true }).fill(`Germans ${stamp}`);
    await page.getByRole("button", { name: "Save view" }).click();
    await expect(toast(page, `View “Germans ${stamp}” saved.`)).toBeVisible();
    await page.goto("/subscribers?view=all");
    await viewsButton(page).click();
    // The menu says its filters as the toolbar's chips.
    await expect(menu(page).getByRole("list", { name: `Filters and sort of Germans ${stamp}` })).toHaveText(/Country: Germany\s*Status: Active\s*Sort: Created, descending/);
    await page.screenshot({ path: `${SCREENS}/views-menu-chips.png` });
    await menu(page).getByRole("link", { name: `Germans ${stamp}` }).click();
    await expect(page).toHaveURL(/columns=/);
    await expect.poll(headers).toEqual(shown);
    // A view's own order (through the API) is kept as it is.
    const order = ["email", "last_name", "first_name", "subscription_status"];
    expect((await page.request.post("/api/v1/views", { data: { resource: "subscribers", name: `Ordered ${stamp}`, query: "subscription_status=active", columns: order } })).status()).toBe(201);

    // The views page: chips, not the query; rename in place (Escape cancels, Enter saves); copy link.
    await page.goto("/views?resource=subscribers");
    const item = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: `Ordered ${stamp}` }) });
    await expect(item.getByRole("list", { name: `Filters and sort of Ordered ${stamp}` })).toHaveText("Status: Active");
    await expect(page.getByText("subscription_status=")).toHaveCount(0);
    await page.getByRole("button", { name: `Rename Germans ${stamp}` }).click();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("heading", { name: `Germans ${stamp}` })).toBeVisible();
    await page.getByRole("button", { name: `Rename Germans ${stamp}` }).click();
    await page.getByRole("textbox", { name: `New name of the view “Germans ${stamp}”` }).fill(`Active Germans ${stamp}`);
    await page.keyboard.press("Enter");
    await expect(toast(page, `View “Active Germans ${stamp}” saved.`)).toBeVisible();
    await expect(page.getByRole("heading", { name: `Active Germans ${stamp}` })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${SCREENS}/views-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENS}/views-390.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: `Copy link to Ordered ${stamp}` }).click();
    await expect(toast(page, `Link to “Ordered ${stamp}” copied.`)).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/^http:\/\/localhost:\d+\/subscribers\?subscription_status=active&columns=/);
    await page.goto(link);
    await expect.poll(headers).toEqual(["Email", "Last name", "First name", "Status"]);
    await page.context().close();
  });
});
