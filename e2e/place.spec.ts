import type { Page } from "@playwright/test";
import { expect, openRowMenu, queryOf, signInByApi, test } from "./fixtures";

// Lists keep their place: every way back to the subscriber list returns to it as it was. The
// users table's row menu, the pager's last page, the phone header and the error pages.

const SCREENS = "test-results/screens";
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);
const backLink = (page: Page) => page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "← Subscribers" });

test.describe("lists keep their place", () => {
  test("record, edit (after saving), bulk change and duplicates lead back to the list's filters, sort, page and columns", async ({ asAdmin: page }) => {
    const s = stamp();
    for (let i = 0; i < 12; i++) {
      const response = await page.request.post("/api/v1/subscribers", {
        data: { first_name: `Pia${i}`, last_name: `Place${s}x${String(i).padStart(2, "0")}`, email: `pia.${s}.${i}@example.com`, mobile: `+44 7401 ${s.slice(-4)}${String(i).padStart(2, "0")}`, subscription_status: "pending", is_mandatory: false },
      });
      expect(response.status()).toBe(201);
    }
    const list = { q: `Place${s}`, sort: "-last_name", page: "2", columns: "id,first_name,last_name,subscription_status" };
    const atList = async () => {
      await expect(page).toHaveURL(/\/subscribers\?/);
      expect(queryOf(page)).toEqual(list);
      await expect(page.getByRole("columnheader")).toHaveCount(4);
      await expect(page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "2", exact: true })).toHaveAttribute("aria-current", "page");
    };
    await page.goto(`/subscribers?${new URLSearchParams(list)}`);
    const rows = page.getByRole("table", { name: "Subscribers" }).locator("tbody tr");
    await expect(rows).toHaveCount(2); // page 2 of 12, newest names last: x01 and x00

    // The record, from its row, and back.
    await rows.first().getByRole("link", { name: "Pia1" }).click();
    await expect(page.getByRole("heading", { name: `Pia1 Place${s}x01` })).toBeVisible();
    expect(new URL(page.url()).searchParams.get("back")).toBe(`/subscribers?${new URLSearchParams(list)}`);
    await page.screenshot({ path: `${SCREENS}/place-record-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENS}/place-record-390.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await backLink(page).click();
    await atList();

    // The edit page, saved: the record it returns to still leads back.
    await rows.first().getByRole("link", { name: "Pia1" }).click();
    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { name: "Edit subscriber" })).toBeVisible();
    await expect(backLink(page)).toHaveAttribute("href", `/subscribers?${new URLSearchParams(list)}`);
    await page.getByLabel("Subscription status").selectOption("active");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("region", { name: "History" })).toContainText("Status: Pending → Active");
    await backLink(page).click();
    await atList();

    // A bulk change's confirmation.
    await rows.first().getByRole("checkbox").check();
    await page.getByRole("button", { name: "Set mandatory to Yes" }).click();
    await expect(page.getByRole("heading", { name: "Change subscribers" })).toBeVisible();
    await backLink(page).click();
    await atList();

    // The duplicates review, filtered there too.
    await page.getByRole("link", { name: /^Duplicates/ }).click();
    await expect(page.getByRole("heading", { name: "Duplicates" })).toBeVisible();
    await backLink(page).click();
    await atList();

    // A `back` that names anything but the list leads to the bare list, never elsewhere.
    const id = new URL(await rows.first().getByRole("link", { name: "Pia1" }).getAttribute("href") ?? "", "http://x").pathname;
    for (const evil of ["//evil.example/subscribers", "https://evil.example/subscribers", "/subscribers//evil.example", "/users?role=admin", "/\\evil.example"]) {
      for (const path of [id, `${id}/edit`, "/subscribers/duplicates"]) {
        await page.goto(`${path}?back=${encodeURIComponent(evil)}`);
        await expect(backLink(page), `${path} back=${evil}`).toHaveAttribute("href", "/subscribers");
      }
    }
  });
});

test.describe("users, pager, header", () => {
  test("a user's actions sit in one menu a row, each dangerous one confirmed naming the user; usable on a phone", async ({ asAdmin: page }) => {
    const name = `Mona Menu ${stamp()}`;
    const email = `mona.${stamp()}@example.com`;
    const made = await page.request.post("/api/v1/users", { data: { name, email, role: "staff" } });
    expect(made.status(), await made.text()).toBe(201);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/users?email=${encodeURIComponent(email)}`);
    const row = page.getByRole("row", { name: new RegExp(name) });
    // One button, not four stacked: the row stays one line tall.
    expect((await row.boundingBox())!.height).toBeLessThan(70);
    await expect(row.getByRole("button", { name: `Deactivate ${name}` })).toBeHidden();
    await page.screenshot({ path: `${SCREENS}/place-users-1280.png` });

    // From the keyboard: Enter opens the menu, Escape closes it back onto its button.
    const summary = row.locator("summary", { hasText: "Actions" });
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(row.getByRole("button", { name: `Deactivate ${name}` })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(row.getByRole("button", { name: `Deactivate ${name}` })).toBeHidden();
    await expect(summary).toBeFocused();

    // Make admin asks first; Cancel changes nothing.
    await openRowMenu(row);
    await expect(row.getByRole("button", { name: `Branches of ${name}` })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/place-users-menu-1280.png` });
    await row.getByRole("button", { name: `Make admin (${name})` }).click();
    const makeAdmin = page.getByRole("dialog", { name: `Make ${name} an administrator?` });
    await expect(makeAdmin).toBeVisible();
    await makeAdmin.getByRole("button", { name: "Cancel" }).click();
    await expect(makeAdmin).toBeHidden();
    await expect(summary).toBeFocused();
    await expect(row.getByRole("cell").nth(2)).toHaveText("Staff");

    // On a phone the menu's button is on screen, and so are its items.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = (await summary.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await openRowMenu(row);
    const deactivate = row.getByRole("button", { name: `Deactivate ${name}` });
    const item = (await deactivate.boundingBox())!;
    expect(item.x).toBeGreaterThanOrEqual(0);
    expect(item.x + item.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SCREENS}/place-users-menu-390.png` });
    await deactivate.click();
    const dialog = page.getByRole("dialog", { name: `Deactivate ${name}?` });
    await expect(dialog).toContainText("signed out everywhere");
    await dialog.getByRole("button", { name: "Deactivate" }).click();
    await expect(row.getByRole("cell").nth(4)).toHaveText("Deactivated");
    await page.screenshot({ path: `${SCREENS}/place-users-390.png` });
  });

  test("the pager reaches the last page in its seven buttons; the phone header is compact; error pages have one main", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInByApi(page, "staff");
    await page.goto("/subscribers?sort=id");
    const pager = page.getByRole("navigation", { name: "Pagination" });
    const total = Number((await page.getByText(/^Showing 1–10 of /).innerText()).replace(/^Showing 1–10 of ([\d,]+).*$/, "$1").replace(/,/g, ""));
    const last = String(Math.ceil(total / 10));
    expect(Number(last)).toBeGreaterThan(7);
    const numbers = pager.getByRole("link", { name: /^\d+$/ });
    await expect(numbers).toHaveCount(7);
    await expect(numbers.last()).toHaveText(last);
    await expect(pager).toContainText("…");
    await pager.screenshot({ path: `${SCREENS}/place-pager-1280.png` });
    await numbers.last().click();
    await expect(page).toHaveURL(new RegExp(`[?&]page=${last}(&|$)`));
    expect(queryOf(page).sort).toBe("id");
    await expect(pager.getByRole("link", { name: last, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(numbers).toHaveCount(7);
    await expect(numbers.first()).toHaveText("1");
    await expect(pager.getByRole("link", { name: "Next" })).toHaveCount(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENS}/place-pager-390.png`, fullPage: true });
    // The phone header: the name and Sign out beside "Console", the menu in one band under them.
    await page.goto("/subscribers");
    const header = page.locator("header").first();
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(130);
    const signOut = (await page.getByRole("button", { name: "Sign out" }).boundingBox())!;
    const consoleLink = (await header.getByRole("link", { name: "Console" }).boundingBox())!;
    expect(Math.abs(signOut.y + signOut.height / 2 - (consoleLink.y + consoleLink.height / 2))).toBeLessThan(16);
    await page.screenshot({ path: `${SCREENS}/place-header-390.png` });

    // 404 and 403: one main landmark each.
    for (const [path, status] of [["/subscribers/999999999", 404], ["/no-such-page", 404], ["/users", 403]] as const) {
      expect((await page.goto(path))?.status(), path).toBe(status);
      await expect(page.getByRole("main"), path).toHaveCount(1);
    }
    await context.close();
  });
});
