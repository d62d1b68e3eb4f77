import type { Page } from "@playwright/test";
import { expect, listToolbar, queryOf, signInByApi, test, USERS } from "./fixtures";

// /branches, /users and /audit share the subscriber list's toolbar (components/list/filter-bar.tsx):
// the search, the Filters panel, a chip for each filter in force and Clear filters, all in the
// URL with docs/API.md's parameter names.

const SCREENS = "test-results/screens";

/** Waits for the URL to be `path` with exactly `query`, in any order. */
async function expectQuery(page: Page, path: string, query: Record<string, string>) {
  await expect(page).toHaveURL(new RegExp(`${path}(\\?|$)`));
  await expect.poll(() => queryOf(page)).toEqual(query);
}

test.describe("the list toolbar", () => {
  test("/branches: search, a date from the panel, chips, Clear filters", async ({ asStaff: page }) => {
    const toolbar = listToolbar(page, "Name");
    await page.goto("/branches?sort=name");
    await expect(toolbar.chips).toHaveCount(0);

    await toolbar.search.fill("a");
    await expectQuery(page, "/branches", { sort: "name", name: "a" });
    const panel = await toolbar.openFilters();
    await panel.getByRole("textbox", { name: "Created from" }).fill("2020-01-01");
    await expectQuery(page, "/branches", { sort: "name", name: "a", created_from: "2020-01-01" });
    await expect(toolbar.chip("Name: a")).toBeVisible();
    await expect(toolbar.chip("Created from: 1 Jan 2020")).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/branches-toolbar-open.png` });
    await page.keyboard.press("Escape");
    await expect(panel).toHaveJSProperty("open", false);
    await expect(page.getByRole("search", { name: "Filters" }).locator("summary")).toHaveText(/^Filters · 1/);

    await toolbar.chip("Name: a").click();
    await expectQuery(page, "/branches", { sort: "name", created_from: "2020-01-01" });
    await expect(toolbar.search).toHaveValue("");
    await expect(toolbar.chip(/Remove the filter Name/)).toHaveCount(0);

    // Clear filters keeps the sort.
    await toolbar.clear.click();
    await expectQuery(page, "/branches", { sort: "name" });
    await expect(toolbar.chips).toHaveCount(0);
    await expect(page.getByRole("table", { name: "Branches" })).toBeVisible();
  });

  test("/users: search, a role from the panel, chips, Clear filters", async ({ asAdmin: page }) => {
    const toolbar = listToolbar(page, "Name");
    await page.goto("/users");

    await toolbar.search.fill("Ada");
    await expectQuery(page, "/users", { name: "Ada" });
    const panel = await toolbar.openFilters();
    await panel.getByRole("combobox", { name: "Role" }).selectOption("admin");
    await expectQuery(page, "/users", { name: "Ada", role: "admin" });
    await expect(toolbar.chip("Role: Administrator")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(USERS.admin.name) })).toBeVisible();
    await page.keyboard.press("Escape");

    await toolbar.chip("Role: Administrator").click();
    await expectQuery(page, "/users", { name: "Ada" });
    await expect(toolbar.chip("Name: Ada")).toBeVisible();

    await toolbar.clear.click();
    await expectQuery(page, "/users", {});
    await expect(toolbar.chips).toHaveCount(0);
    await expect(toolbar.search).toHaveValue("");
    await expect(page.getByRole("row", { name: new RegExp(USERS.staff.name) })).toBeVisible();
  });

  test("/audit: search by who, an action from the panel, chips, Clear filters", async ({ asAdmin: page }) => {
    const toolbar = listToolbar(page, "Who");
    await page.goto("/audit");

    await toolbar.search.fill(USERS.admin.email);
    await expectQuery(page, "/audit", { actor: USERS.admin.email });
    const panel = await toolbar.openFilters();
    await panel.getByRole("combobox", { name: "Action" }).selectOption("auth.sign_in");
    await expectQuery(page, "/audit", { actor: USERS.admin.email, action: "auth.sign_in" });
    await expect(toolbar.chip("Action: Signed in")).toBeVisible();
    await expect(toolbar.chip(`Who: ${USERS.admin.email}`)).toBeVisible();
    await page.keyboard.press("Escape");
    const table = page.getByRole("table", { name: "Audit events" });
    await expect(table.getByRole("cell", { name: "Signed in", exact: true }).first()).toBeVisible();
    await expect(table.getByText(/^Created the user/)).toHaveCount(0);

    await toolbar.chip(`Who: ${USERS.admin.email}`).click();
    await expectQuery(page, "/audit", { action: "auth.sign_in" });
    await expect(toolbar.search).toHaveValue("");

    await toolbar.clear.click();
    await expectQuery(page, "/audit", {});
    await expect(toolbar.chips).toHaveCount(0);
    await expect((await toolbar.openFilters()).getByRole("combobox", { name: "Action" })).toHaveValue("");
  });

  for (const [path, name] of [
    ["/branches?name=a", "branches"],
    ["/users?role=staff", "users"],
    ["/audit?action=auth.sign_in", "audit"],
  ] as const) {
    test(`${name}: the toolbar and table at desktop and phone width`, async ({ browser }) => {
      for (const [width, height, device] of [
        [1280, 800, "desktop"],
        [390, 844, "phone"],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height } });
        const page = await context.newPage();
        await signInByApi(page, "admin");
        await page.goto(path);
        await expect(page.getByRole("list", { name: "Filters in force" })).toBeVisible();
        await expect(page.getByRole("table")).toBeVisible();
        await page.screenshot({ path: `${SCREENS}/list-toolbar-${name}-${device}.png`, fullPage: true });
        // A wide table scrolls inside its frame; the page itself never scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await context.close();
      }
    });
  }
});
