import type { Browser, Page } from "@playwright/test";
import { axeViolations, expect, hydrated, listToolbar, signInByApi, test, toast } from "./fixtures";

// The subscriber record, edits and conflicts, bulk changes, and the table's toolbar and columns
// in the browser, desktop and phone.

const SCREENS = "test-results/screens";
const COLUMN_ORDER = ["id", "first_name", "last_name", "email", "mobile", "subscription_status", "is_duplicate", "is_mandatory", "branch_name", "country_name", "travel_date", "sheet", "created_at"];
const bodyRows = (page: Page) => page.getByRole("table", { name: "Subscribers" }).locator("tbody tr");
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** A subscriber of the test's own, made through the API as the page's user. */
async function newSubscriber(page: Page, change: Record<string, unknown> = {}) {
  const s = stamp();
  const response = await page.request.post("/api/v1/subscribers", {
    data: { first_name: "Rhea", last_name: `Record${s}`, email: `rhea.${s}@example.com`, mobile: `+44 7400 ${s.slice(-6)}`, subscription_status: "pending", is_mandatory: false, ...change },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: number; first_name: string; last_name: string; email: string };
}

async function asStaffIn(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInByApi(page, "staff");
  return { context, page };
}

test.describe("the subscriber record", () => {
  test("opens from the table, edits with the form's rules, and shows the change in its history", async ({ asStaff: page }) => {
    const s = await newSubscriber(page);
    await page.goto(`/subscribers?q=${s.last_name}`);
    await bodyRows(page).first().getByRole("link", { name: "Rhea" }).click();
    // The record, its edit page and the save keep the list's address to go back to.
    const back = `\\?back=${encodeURIComponent(`/subscribers?q=${s.last_name}`)}$`;
    await expect(page).toHaveURL(new RegExp(`/subscribers/${s.id}${back}`));
    await expect(page.getByRole("heading", { name: `Rhea ${s.last_name}` })).toBeVisible();
    await expect(page.getByText(s.email)).toBeVisible();
    await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0); // staff
    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page).toHaveURL(new RegExp(`/subscribers/${s.id}/edit${back}`));
    await page.getByLabel("Last name").fill(`${s.last_name}-Edited`);
    await page.getByLabel("Subscription status").selectOption("active");
    await page.screenshot({ path: `${SCREENS}/subscriber-edit.png`, fullPage: true });
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(new RegExp(`/subscribers/${s.id}${back}`));
    await expect(page.getByRole("heading", { name: `Rhea ${s.last_name}-Edited` })).toBeVisible();
    const history = page.getByRole("region", { name: "History" });
    await expect(history).toContainText("changed it");
    await expect(history).toContainText(`Last name: ${s.last_name} → ${s.last_name}-Edited`);
    await expect(history).toContainText("Status: Pending → Active");
    await page.screenshot({ path: `${SCREENS}/subscriber-record.png`, fullPage: true });
  });

  test("two people editing one record: the second sees both versions and puts their change on top", async ({ browser }) => {
    const one = await asStaffIn(browser);
    const two = await asStaffIn(browser);
    const s = await newSubscriber(one.page);
    await one.page.goto(`/subscribers/${s.id}/edit`);
    await two.page.goto(`/subscribers/${s.id}/edit`);
    await one.page.getByLabel("First name").fill("Rhian");
    await one.page.getByRole("button", { name: "Save changes" }).click();
    await expect(one.page).toHaveURL(new RegExp(`/subscribers/${s.id}$`));

    await two.page.getByLabel("Last name").fill("Second");
    await two.page.getByRole("button", { name: "Save changes" }).click();
    const alert = two.page.getByRole("alert").filter({ hasText: "Someone changed this subscriber" });
    await expect(alert).toBeVisible();
    const table = two.page.getByRole("table", { name: "Your version and theirs" });
    await expect(table.getByRole("row", { name: /First name/ })).toContainText("Rhian");
    await expect(table.getByRole("row", { name: /First name/ })).toContainText("they changed");
    await expect(table.getByRole("row", { name: /Last name/ })).toContainText("you changed");
    // Saved at a time in the console's format (as the rest of the console: "24 Nov 2026, 21:31:01").
    await expect(alert).toContainText(/saved at \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}\./);
    await two.page.screenshot({ path: `${SCREENS}/subscriber-conflict.png`, fullPage: true });
    // On a phone both versions of each field are on the screen (no third column off its edge).
    await two.page.setViewportSize({ width: 390, height: 844 });
    const fields = two.page.getByRole("list", { name: "Your version and theirs" });
    for (const [field, mine, theirs] of [["First name", "Rhea", "Rhian"], ["Last name", "Second", s.last_name]] as const) {
      const item = fields.getByRole("listitem", { name: field });
      await item.scrollIntoViewIfNeeded();
      await expect(item.getByText(mine, { exact: true })).toBeInViewport({ ratio: 1 });
      await expect(item.getByText(theirs, { exact: true })).toBeInViewport({ ratio: 1 });
    }
    await expect(fields.getByRole("listitem", { name: "First name" })).toContainText("they changed");
    await two.page.screenshot({ path: `${SCREENS}/subscriber-conflict-phone.png`, fullPage: true });
    await two.page.setViewportSize({ width: 1280, height: 720 });
    await two.page.getByRole("button", { name: "Put my changes on their version" }).click();
    await expect(two.page.getByLabel("First name")).toHaveValue("Rhian");
    await expect(two.page.getByLabel("Last name")).toHaveValue("Second");
    await two.page.getByRole("button", { name: "Save changes" }).click();
    await expect(two.page).toHaveURL(new RegExp(`/subscribers/${s.id}$`));
    await expect(two.page.getByRole("heading", { name: "Rhian Second" })).toBeVisible();
    await one.context.close();
    await two.context.close();
  });

  test("a duplicate links to the earlier subscriber it matches, and an admin deletes with a confirmation that names it", async ({ asAdmin: page }) => {
    const first = await newSubscriber(page);
    const dup = await newSubscriber(page, { email: first.email.toUpperCase() });
    await page.goto(`/subscribers/${dup.id}`);
    const section = page.getByRole("region", { name: /A duplicate of/ });
    await expect(section).toContainText("same email");
    await section.getByRole("link", { name: new RegExp(`#${first.id}`) }).click();
    await expect(page).toHaveURL(new RegExp(`/subscribers/${first.id}$`));
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: `Delete Rhea ${first.last_name}?` });
    await expect(dialog).toContainText(`#${first.id}`);
    await page.screenshot({ path: `${SCREENS}/subscriber-delete.png` });
    await dialog.getByRole("button", { name: "Delete subscriber" }).click();
    await expect(page).toHaveURL(/\/subscribers$/);
    // Its later duplicate is no longer one.
    await page.goto(`/subscribers/${dup.id}`);
    await expect(page.getByRole("region", { name: /A duplicate of/ })).toHaveCount(0);
  });
});

test.describe("bulk changes", () => {
  const bar = (page: Page) => page.getByRole("form", { name: "Change the selected subscribers" });

  test("the toolbar: shown with a selection, its count, all matching, named changes, the confirmation names the rows", async ({ asStaff: page }) => {
    const a = await newSubscriber(page, { first_name: "Ann", last_name: `Bulk${stamp()}` });
    for (const first of ["Ben", "Cleo", "Dan"]) await newSubscriber(page, { first_name: first, last_name: `${a.last_name}x` });
    await page.goto(`/subscribers?q=${a.last_name}&sort=first_name`);
    await expect(bodyRows(page)).toHaveCount(4);
    // Nothing selected: no toolbar, so nothing to click that leads nowhere.
    await expect(bar(page)).toBeHidden();
    for (const row of (await bodyRows(page).all()).slice(0, 3)) await row.getByRole("checkbox").check();
    await expect(bar(page).getByRole("status")).toHaveText("3 selected");
    await expect(page.getByRole("checkbox", { name: "Select every subscriber on this page" })).toHaveJSProperty("indeterminate", true);
    // Named buttons, and no deletion for staff.
    for (const name of ["Set the status to Pending", "Set the status to Active", "Set the status to Expired", "Set the status to Cancelled", "Set mandatory to Yes", "Set mandatory to No"]) {
      await expect(bar(page).getByRole("button", { name })).toBeVisible();
    }
    await expect(bar(page).getByRole("button", { name: "Delete" })).toHaveCount(0);
    await bar(page).getByRole("checkbox", { name: "Select all 4 matching" }).check();
    await expect(bar(page).getByRole("status")).toHaveText("All 4 selected");
    await bar(page).getByRole("checkbox", { name: "Select all 4 matching" }).uncheck();
    await bar(page).getByRole("button", { name: "Set the status to Expired" }).click();
    await expect(page).toHaveURL(/\/subscribers\/bulk\?/);
    await expect(page.getByRole("heading", { name: "3 subscribers will change: set the status to expired" })).toBeVisible();
    await expect(page.getByTestId("bulk-which")).toHaveText(`The 3 subscribers you selected: Ann ${a.last_name}, Ben ${a.last_name}x, Cleo ${a.last_name}x.`);
    await (await hydrated(page.getByRole("button", { name: "Change 3 subscribers" }))).click();
    await expect(page).toHaveURL(new RegExp(`/subscribers\\?q=${a.last_name}&sort=first_name$`));
    await expect(toast(page, "3 subscribers changed.")).toBeVisible();
    await expect(bodyRows(page).filter({ hasText: "Expired" })).toHaveCount(3);
    // Back with nothing selected; "Clear selection" hides the toolbar again.
    await expect(bar(page)).toBeHidden();
    await bodyRows(page).first().getByRole("checkbox").check();
    await bar(page).getByRole("button", { name: "Clear selection" }).click();
    await expect(bar(page)).toBeHidden();
    // Every subscriber matching the filters, named as the list's chips name them.
    await page.getByRole("checkbox", { name: "Select every subscriber on this page" }).check();
    await expect(bar(page).getByRole("status")).toHaveText("4 selected");
    await expect(bar(page).getByRole("checkbox", { name: /Select all/ })).toBeHidden();
    await page.goto(`/subscribers/bulk?q=${a.last_name}&scope=all&change=mandatory:true`);
    await expect(page.getByRole("heading", { name: "4 subscribers will change: set mandatory to yes" })).toBeVisible();
    await expect(page.getByTestId("bulk-which")).toHaveText("All 4 subscribers matching these filters (as they match when the change runs):");
    await expect(page.getByRole("list", { name: "The change's filters" })).toHaveText(`Search: ${a.last_name}`);
  });

  test("an administrator's Delete: the confirmation names the rows and the trash (desktop and phone)", async ({ asAdmin: page }) => {
    const a = await newSubscriber(page, { first_name: "Ann", last_name: `Bulk${stamp()}` });
    for (const first of ["Ben", "Cleo", "Dan", "Eve"]) await newSubscriber(page, { first_name: first, last_name: `${a.last_name}x` });
    for (const [width, height, suffix] of [[1280, 900, "1280"], [390, 844, "390"]] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`/subscribers?q=${a.last_name}&sort=first_name`);
      await expect(bodyRows(page)).toHaveCount(5);
      for (const row of (await bodyRows(page).all()).slice(0, 4)) await row.getByRole("checkbox").check();
      await expect(bar(page).getByRole("status")).toHaveText("4 selected");
      await expect(bar(page).getByRole("button", { name: "Delete" })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENS}/bulk-bar-${suffix}.png` });
      await bar(page).getByRole("button", { name: "Delete" }).click();
      await expect(page.getByRole("heading", { name: "Delete 4 subscribers?" })).toBeVisible();
      await expect(page.getByTestId("bulk-which")).toHaveText(`The 4 subscribers you selected: Ann ${a.last_name}, Ben ${a.last_name}x, Cleo ${a.last_name}x and 1 more.`);
      await expect(page.getByText(/^They go to the trash: you can restore them from it for \d+ days, or undo this deletion from its page\.$/)).toBeVisible();
      await expect(page.getByRole("button", { name: "Delete 4 subscribers" })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENS}/bulk-confirm-delete-${suffix}.png`, fullPage: true });
    }
    // On a long list the toolbar is held at the bottom of the window, over the rows below.
    await page.goto("/subscribers");
    await bodyRows(page).first().getByRole("checkbox").check();
    const box = await bar(page).boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    // Compact on a phone: the count, then the changes in one row that scrolls sideways (not four lines).
    expect(box!.height).toBeLessThan(130);
    await page.screenshot({ path: `${SCREENS}/bulk-bar-long-list-390.png` });
    // All matching, by filters: the count and the filters' words.
    await page.goto(`/subscribers/bulk?q=${a.last_name}&subscription_status=pending&scope=all&change=delete`);
    await expect(page.getByRole("heading", { name: "Delete 5 subscribers?" })).toBeVisible();
    await expect(page.getByTestId("bulk-which")).toHaveText("All 5 subscribers matching these filters (as they match when the change runs):");
    await expect(page.getByRole("list", { name: "The change's filters" })).toHaveText(new RegExp(`Search: ${a.last_name}\\s*Status: Pending`));
    await page.screenshot({ path: `${SCREENS}/bulk-confirm-filters-390.png`, fullPage: true });
  });
});

test.describe("the table's toolbar and columns", () => {
  test("search, filter chips, Clear filters and the / key", async ({ asStaff: page }) => {
    const s = await newSubscriber(page);
    await page.goto("/subscribers");
    // The shortcut is the page's script: a key pressed before it runs (a busy CI machine) does
    // nothing, so press until the script has run; a press after that must focus the search.
    const search = page.getByRole("searchbox", { name: "Search" });
    await expect(async () => {
      await page.keyboard.press("/");
      await expect(search).toBeFocused({ timeout: 1_000 });
    }).toPass();
    await expect(search).toHaveValue("");
    await page.keyboard.type(s.last_name.toLowerCase());
    await expect(page).toHaveURL(new RegExp(`q=${s.last_name.toLowerCase()}`));
    await expect(bodyRows(page)).toHaveCount(1);
    await (await listToolbar(page, "Search").openFilters()).getByRole("combobox", { name: "Status" }).selectOption("pending");
    await expect(page).toHaveURL(/subscription_status=pending/);
    const chips = page.getByRole("list", { name: "Filters in force" });
    await expect(chips.getByRole("link", { name: /Remove the filter Status: Pending/ })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/subscribers-filters-open.png` });
    await page.keyboard.press("Escape");
    await chips.getByRole("link", { name: new RegExp(`Remove the filter Search`) }).click();
    await expect(page).toHaveURL(/\/subscribers\?subscription_status=pending$/);
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/subscribers$/);

    // Typed, then "Clear filters" at once, before the search's pause is over: leaving the field
    // applies it first, so the clear comes last and stays (a change still waiting undid it).
    await page.goto("/subscribers?subscription_status=pending");
    await expect(async () => {
      await page.keyboard.press("/");
      await expect(search).toBeFocused({ timeout: 1_000 });
    }).toPass();
    await page.keyboard.type(s.last_name.toLowerCase());
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/subscribers$/);
    await page.waitForTimeout(800); // past the search's 300 ms pause: nothing late lands
    await expect(page).toHaveURL(/\/subscribers$/);
    await expect(search).toHaveValue("");
  });

  test("the column chooser hides columns for this user on every device, with density; Reset brings them back", async ({ browser }) => {
    const here = await asStaffIn(browser);
    await here.page.goto("/subscribers");
    await here.page.getByRole("link", { name: "Columns · fit" }).click();
    await expect(here.page).toHaveURL(/\/subscribers\/columns\?back=/);
    // No choice yet: ticked are the columns that fit a wide screen, the id not among them.
    await expect(here.page.getByRole("checkbox", { name: "Email" })).toBeChecked();
    await expect(here.page.getByRole("checkbox", { name: "ID" })).not.toBeChecked();
    await here.page.getByRole("checkbox", { name: "ID" }).check();
    await here.page.getByRole("checkbox", { name: "Email" }).uncheck();
    await here.page.getByRole("checkbox", { name: "Mobile" }).uncheck();
    await here.page.getByRole("checkbox", { name: "First name" }).uncheck();
    await here.page.getByRole("radio", { name: "compact" }).check();
    await here.page.screenshot({ path: `${SCREENS}/subscribers-columns.png` });
    await here.page.getByRole("button", { name: "Apply" }).click();
    await expect(here.page.getByRole("columnheader", { name: "Last name" })).toBeVisible();
    await expect(here.page.getByRole("columnheader", { name: "Email" })).toHaveCount(0);
    await expect(here.page.getByRole("columnheader", { name: "First name" })).toHaveCount(0);
    // Without the first name, every row still opens its record: its first column carries the link.
    const idOf = async (row: ReturnType<typeof bodyRows>) => /^\d+/.exec((await row.locator("td").first().innerText()).trim())![0];
    for (const row of await bodyRows(here.page).all()) {
      await expect(row.getByRole("link")).toHaveAttribute("href", `/subscribers/${await idOf(row)}`);
      await expect(row.getByRole("link")).toHaveAccessibleName(/^\d+ \(.+ .+\)$/); // the id, and whose record it opens
    }
    const firstRow = bodyRows(here.page).first();
    const firstId = await idOf(firstRow);
    await firstRow.getByRole("link").click();
    await expect(here.page).toHaveURL(new RegExp(`/subscribers/${firstId}$`));
    await here.page.goBack();
    // Another device of the same user.
    const there = await asStaffIn(browser);
    await there.page.goto("/subscribers");
    await expect(there.page.getByRole("columnheader", { name: "Email" })).toHaveCount(0);
    await expect(there.page.getByRole("columnheader", { name: "Mobile" })).toHaveCount(0);
    await expect(there.page.getByRole("columnheader", { name: "Last name" })).toBeVisible();
    await there.page.screenshot({ path: `${SCREENS}/subscribers-compact.png` });
    await there.page.getByRole("link", { name: /^Columns · 5 of 13/ }).click();
    await there.page.getByRole("button", { name: "Reset to the columns that fit the screen" }).click();
    await expect(there.page.getByRole("columnheader", { name: "Email" })).toBeVisible();
    await expect(there.page.getByRole("link", { name: "Columns · fit" })).toBeVisible();
    await here.context.close();
    await there.context.close();
  });

  for (const [width, height, rows, name] of [[390, 844, 1, "phone"], [1280, 800, 5, "desktop"]] as const) {
    test(`at ${width}×${height} the first ${rows === 1 ? "row is" : `${rows} rows are`} visible without scrolling (${name})`, async ({ asStaff: page }) => {
      await page.setViewportSize({ width, height });
      await page.goto("/subscribers");
      await expect(bodyRows(page)).toHaveCount(10);
      for (let i = 0; i < rows; i++) {
        const box = (await bodyRows(page).nth(i).boundingBox())!;
        expect(box.y + box.height, `row ${i + 1}`).toBeLessThanOrEqual(height);
      }
      await page.screenshot({ path: `${SCREENS}/subscribers-${name}.png` });
      const region = page.getByRole("region", { name: "Subscribers table" });
      const more = page.getByText("Scroll sideways for more columns");
      // With no columns chosen, those shown fit: nothing lies behind a scroll, so no hint either.
      expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      await expect(more).toBeHidden();
      if (name === "phone") {
        // A card a subscriber: the box, the name as the record's link, the status, the email, none cut off.
        const first = bodyRows(page).first();
        const link = first.getByRole("link");
        await expect(link).toHaveAttribute("href", /^\/subscribers\/\d+/);
        await expect(first.getByRole("checkbox", { name: /^Select / })).toBeVisible();
        const card = (await first.boundingBox())!;
        expect(card.x).toBeGreaterThanOrEqual(0);
        expect(card.x + card.width).toBeLessThanOrEqual(width);
        expect(card.height, "a compact card").toBeLessThan(120);
        for (const cell of await first.locator("td:visible").all()) {
          const box = (await cell.boundingBox())!;
          expect(box.x + box.width, await cell.innerText()).toBeLessThanOrEqual(card.x + card.width);
        }
        expect(await first.locator("td:visible").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/@/), expect.stringMatching(/^(Active|Pending|Unsubscribed|Bounced)/)]));
        await first.getByRole("checkbox").check();
        await expect(first.getByRole("checkbox")).toBeChecked();
        expect(await axeViolations(page)).toEqual([]);
        return;
      }
      // A view's own columns win over the fit, all thirteen: the scroll is marked, and the header
      // and the first column stay put while the table scrolls sideways, the hint gone at the end.
      await page.goto(`/subscribers?columns=${COLUMN_ORDER.join(",")}`);
      await expect(page.getByRole("columnheader")).toHaveCount(COLUMN_ORDER.length);
      await expect(more).toBeVisible();
      await page.screenshot({ path: `${SCREENS}/subscribers-desktop-all-columns.png` });
      expect(await axeViolations(page)).toEqual([]);
      const before = (await bodyRows(page).first().locator("td").first().boundingBox())!.x;
      await region.evaluate((el) => el.scrollBy({ left: 400 }));
      expect((await bodyRows(page).first().locator("td").first().boundingBox())!.x).toBe(before);
      await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect(more).toBeHidden();
      await expect(page.getByRole("columnheader", { name: "Created" })).toBeInViewport();
    });
  }

  test("every toolbar control is reached with the keyboard alone", async ({ asStaff: page }) => {
    await page.goto("/subscribers");
    const reached = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const label = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el ? `${el.tagName}:${el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 30) ?? ""}` : "";
      });
      reached.add(label);
    }
    const all = [...reached].join("\n");
    for (const expected of [/INPUT:|Search/, /SUMMARY:Filters/, /A:Columns/]) expect(all).toMatch(expected);
    // The bulk toolbar, there once a row is selected, comes next after the rows.
    await bodyRows(page).last().getByRole("checkbox").check();
    const bulk: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      bulk.push(await page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim() ?? ""));
    }
    expect(bulk.join("\n")).toMatch(/Set the status to Active/);
  });
});
