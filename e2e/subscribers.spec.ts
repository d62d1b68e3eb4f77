import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const SCREENS = "test-results/screens";
/** A view's columns: every one, in the table's order (with none chosen, only those that fit the screen show). */
const EVERY_COLUMN = "columns=id,first_name,last_name,email,mobile,subscription_status,is_duplicate,is_mandatory,branch_name,country_name,travel_date,sheet,created_at";
/** The address's columns, as links and the filters keep them (a comma encoded). */
const COLUMNS_KEPT = "columns=[^&]+";

/** The body rows of the subscriber table (the header row excluded). */
const bodyRows = (page: Page) => page.getByRole("table", { name: "Subscribers" }).locator("tbody tr");
const summary = (page: Page) => page.getByRole("status").filter({ hasText: /Showing|No subscribers/ });

/** Waits until the filter bar's navigation has finished. */
const settled = (page: Page) => expect(page.getByRole("search", { name: "Filters" })).toHaveAttribute("aria-busy", "false");

async function total(page: Page): Promise<number> {
  await settled(page);
  const text = (await summary(page).textContent()) ?? "";
  return Number(/of ([\d,]+)/.exec(text)?.[1]?.replace(/,/g, "") ?? "0");
}

/** Opens the toolbar's Filters panel (a <details>), where the per-column filters are. */
async function openFilters(page: Page) {
  const panel = page.getByRole("search", { name: "Filters" }).locator("details");
  if (!(await panel.evaluate((d) => (d as HTMLDetailsElement).open))) await panel.locator("summary").click();
}

/** Picks an option of a searchable select by typing part of its name. */
async function choose(page: Page, label: string, typed: string, option: string | RegExp) {
  const box = page.getByRole("combobox", { name: label });
  await box.fill(typed);
  await page.getByRole("listbox", { name: label === "Country" ? "Countries" : "Branches" }).getByRole("option", { name: option }).first().click();
}

test.describe("subscribers", () => {
  test("staff create a subscriber and find it with the filters", async ({ asStaff: page }) => {
    const stamp = Date.now();
    const last = `Quartermaine${stamp}`;
    const mobile = `07400 ${String(stamp).slice(-6)}`;

    await page.goto("/subscribers");
    await page.getByRole("link", { name: "New subscriber" }).click();
    await expect(page).toHaveURL(/\/subscribers\/new$/);
    await page.getByLabel("First name").fill("Zelda");
    await page.getByLabel("Last name").fill(last);
    await page.getByLabel("Email").fill(`zelda.${stamp}@example.com`);
    await choose(page, "Country", "united king", "United Kingdom");
    await page.getByLabel("Mobile").fill(mobile);
    await expect(page.getByText(`Saved as +447400${String(stamp).slice(-6)}.`)).toBeVisible();
    await choose(page, "Branch", "a", /.+/);
    const branch = await page.getByRole("combobox", { name: "Branch" }).inputValue();
    await page.getByLabel("Travel date").fill("2027-06-15");
    await page.getByLabel("Sheet").fill(`E2E sheet ${stamp}`);
    await page.getByLabel("Subscription status").selectOption("active");
    await page.getByLabel("Mandatory subscription").check();
    await page.screenshot({ path: `${SCREENS}/subscriber-form-filled.png`, fullPage: true });
    await page.getByRole("button", { name: "Create subscriber" }).click();

    await expect(page).toHaveURL(/\/subscribers$/);
    await expect(page.getByText(`Subscriber “Zelda ${last}” created.`)).toBeVisible();
    await expect(bodyRows(page).first()).toContainText(last);
    await page.goto(`/subscribers?${EVERY_COLUMN}`);
    const first = bodyRows(page).first();
    await expect(first).toContainText(last);
    await expect(first).toContainText(branch);
    await expect(first).toContainText("United Kingdom");
    await expect(first).toContainText(`+447400${String(stamp).slice(-6)}`);
    await expect(first).toContainText("15 Jun 2027");
    await expect(first).toContainText(`E2E sheet ${stamp}`);
    await expect(first).toContainText("Active");
    await expect(first).toContainText("Mandatory");

    await page.goto("/subscribers");
    await openFilters(page);
    await page.getByRole("searchbox", { name: "Last name" }).fill(last.slice(2).toLowerCase());
    await expect(page).toHaveURL(new RegExp(`last_name=${last.slice(2).toLowerCase()}$`));
    await expect(bodyRows(page)).toHaveCount(1);
    await page.getByRole("searchbox", { name: "Sheet" }).fill(`sheet ${stamp}`);
    await page.getByRole("combobox", { name: "Mandatory" }).selectOption("true");
    await expect(page).toHaveURL(/is_mandatory=true/);
    await expect(page).toHaveURL(new RegExp(`sheet=sheet\\+${stamp}`));
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(summary(page)).toHaveText("Showing 1–1 of 1 subscriber");
    await page.screenshot({ path: `${SCREENS}/subscribers-found.png`, fullPage: true });

    await page.keyboard.press("Escape"); // the Filters panel closes: the chips under it show again
    // ...and only that: the search field the focus was in keeps its text (a native search field
    // empties itself on Escape, and its filter would go a moment later).
    await expect(page.locator('input[type="search"][name="sheet"]')).toHaveValue(`sheet ${stamp}`);
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/subscribers$/);
  });

  test("the form shows validation errors next to the fields and warns about known emails and mobiles", async ({ asStaff: page }) => {
    const stamp = Date.now();
    const six = String(stamp).slice(-6);
    const known = await page.request.post("/api/v1/subscribers", {
      data: { first_name: "Known", last_name: "Person", email: `known.${stamp}@example.com`, mobile: `+44 7400 ${six}`, subscription_status: "active", is_mandatory: false },
    });
    expect(known.status()).toBe(201);
    const { id } = (await known.json()) as { id: number };

    await page.goto("/subscribers/new");
    await page.getByRole("button", { name: "Create subscriber" }).click();
    await expect(page.getByText("Enter the first name.")).toBeVisible();
    await expect(page.getByText("Enter the last name.")).toBeVisible();
    await expect(page.getByText("Enter an email address.")).toBeVisible();
    await expect(page.getByText("Enter a mobile number.")).toBeVisible();

    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Mobile").fill(`07400 ${six}`);
    await page.getByRole("button", { name: "Create subscriber" }).click();
    await expect(page.getByText("Enter a valid email address, like name@example.com.")).toBeVisible();
    await expect(page.getByText(/Start with \+ and the country code/)).toBeVisible();
    await expect(page.getByLabel("Mobile")).toHaveAttribute("aria-invalid", "true");
    await page.screenshot({ path: `${SCREENS}/subscriber-form-errors.png`, fullPage: true });

    // Known email (another case) and known mobile (national form, read with the country).
    await page.getByLabel("Email").fill(`KNOWN.${stamp}@Example.com`);
    await choose(page, "Country", "united king", "United Kingdom");
    await expect(page.getByText(`A subscriber with this email already exists (#${id}).`, { exact: false })).toBeVisible();
    await expect(page.getByText(`A subscriber with this mobile number already exists (#${id}).`, { exact: false })).toBeVisible();
    await page.getByLabel("First name").fill("Dup");
    await page.getByLabel("Last name").fill(`Licate${stamp}`);
    await page.screenshot({ path: `${SCREENS}/subscriber-form-duplicate.png`, fullPage: true });

    await page.getByRole("button", { name: "Create subscriber" }).click();
    await expect(page).toHaveURL(/\/subscribers$/);
    await expect(page.getByText(`Subscriber “Dup Licate${stamp}” created, marked as a duplicate.`)).toBeVisible();
    await expect(bodyRows(page).first()).toContainText(`Licate${stamp}`);
    await page.goto(`/subscribers?${EVERY_COLUMN}`);
    await expect(bodyRows(page).first()).toContainText(`Licate${stamp}`);
    await expect(bodyRows(page).first()).toContainText("Duplicate");
  });

  test("each select filter narrows the rows to its option", async ({ asStaff: page }) => {
    await page.goto(`/subscribers?${EVERY_COLUMN}`);
    const all = await total(page);
    expect(all).toBeGreaterThan(10);
    const cases = [
      { label: "Status", values: [["pending", "Pending"], ["active", "Active"], ["expired", "Expired"], ["cancelled", "Cancelled"]] },
      { label: "Duplicate", values: [["true", "Duplicate"], ["false", "No"]] },
      { label: "Mandatory", values: [["true", "Mandatory"], ["false", "No"]] },
    ];
    const param = { Status: "subscription_status", Duplicate: "is_duplicate", Mandatory: "is_mandatory" } as const;
    const column = { Status: 6, Duplicate: 7, Mandatory: 8 } as const;
    await openFilters(page);
    for (const { label, values } of cases) {
      let sum = 0;
      for (const [value, shown] of values) {
        await page.getByRole("combobox", { name: label }).selectOption(value!);
        await expect(page).toHaveURL(new RegExp(`[?&]${param[label as keyof typeof param]}=${value}($|&)`));
        const n = await total(page);
        expect(n, `${label}=${value}`).toBeLessThan(all);
        sum += n;
        const cells = bodyRows(page).locator(`td:nth-child(${column[label as keyof typeof column]})`);
        for (const text of await cells.allTextContents()) expect(text).toBe(shown);
      }
      expect(sum, `${label}: the options cover every row`).toBe(all);
      await page.getByRole("combobox", { name: label }).selectOption("");
      await expect(page).toHaveURL(new RegExp(`/subscribers\\?${COLUMNS_KEPT}$`));
    }
    const bad = await page.goto("/subscribers?subscription_status=paused");
    expect(bad?.status()).toBe(400); // the API's status, with the page's explanation
    await expect(page.getByRole("alert").filter({ hasText: "cannot use" })).toContainText("subscription_status must be one of: pending, active, expired, cancelled.");
    const api = await page.request.get("/api/v1/subscribers?is_duplicate=maybe");
    expect(api.status()).toBe(400);
  });

  test("paging and sorting keep the filters", async ({ asStaff: page }) => {
    await page.goto(`/subscribers?is_mandatory=true&${EVERY_COLUMN}`);
    const n = await total(page);
    await expect(summary(page)).toHaveText(`Showing 1–10 of ${n.toLocaleString("en-GB")} subscribers`);
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await pager.getByRole("link", { name: "2", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/subscribers\\?is_mandatory=true&${COLUMNS_KEPT}&page=2$`));
    await expect(pager.getByRole("link", { name: "2", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(summary(page)).toHaveText(`Showing 11–20 of ${n.toLocaleString("en-GB")} subscribers`);
    for (const text of await bodyRows(page).locator("td:nth-child(8)").allTextContents()) expect(text).toBe("Mandatory");

    await page.getByRole("columnheader", { name: /Branch/ }).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/subscribers\\?is_mandatory=true&${COLUMNS_KEPT}&sort=branch_name$`));
    await expect(page.getByRole("columnheader", { name: /Branch/ })).toHaveAttribute("aria-sort", "ascending");
    await pager.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(new RegExp(`is_mandatory=true&${COLUMNS_KEPT}&sort=branch_name&page=2$`));
    await page.goBack();
    await expect(page).toHaveURL(/sort=branch_name$/);
    await openFilters(page);
    await expect(page.getByRole("combobox", { name: "Mandatory" })).toHaveValue("true");
    await page.screenshot({ path: `${SCREENS}/subscribers-sorted.png`, fullPage: true });
  });

  test("the list and the form fit a 390px screen; the table is a card a subscriber", async ({ asStaff: page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/subscribers");
    await expect(bodyRows(page)).toHaveCount(10);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    const region = page.getByRole("region", { name: "Subscribers table" });
    // Nothing to scroll sideways in the frame either: each row is a card as wide as the screen allows.
    expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expect(bodyRows(page).first().getByRole("link")).toBeInViewport();
    await page.screenshot({ path: `${SCREENS}/subscribers-390.png`, fullPage: true });
    await page.goto("/subscribers/new");
    await page.getByRole("button", { name: "Create subscriber" }).click();
    await page.screenshot({ path: `${SCREENS}/subscriber-form-390.png`, fullPage: true });
  });

  test("the list shows every column, with quiet dashes for empty values", async ({ asStaff: page }) => {
    await page.goto(`/subscribers?${EVERY_COLUMN}`);
    for (const name of ["ID", "First name", "Last name", "Branch", "Country", "Email", "Mobile", "Travel date", "Sheet", "Status", "Duplicate", "Mandatory", "Created"]) {
      await expect(page.getByRole("columnheader", { name: new RegExp(`^${name}`) })).toBeVisible();
    }
    await expect(page.getByRole("table", { name: "Subscribers" })).not.toContainText("null");
    await page.goto(`/subscribers?sort=-sheet&${EVERY_COLUMN}`);
    await expect(bodyRows(page).first().locator("td:nth-child(12)")).toHaveText("—none");
    await page.screenshot({ path: `${SCREENS}/subscribers.png`, fullPage: true });
  });
});
