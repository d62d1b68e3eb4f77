import type { Page } from "@playwright/test";
import { axeViolations, expect, hydrated, test, toast } from "./fixtures";

// Nothing lost by a wrong click: a deleted subscriber is found in the trash and restored; a bulk
// change is undone from its page, which then says who undid it. axe checks each screen.

const SCREENS = "test-results/screens";
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);

async function newSubscriber(page: Page, lastName: string) {
  const s = stamp();
  const response = await page.request.post("/api/v1/subscribers", {
    data: { first_name: "Tess", last_name: lastName, email: `tess.${s}@example.com`, mobile: `+44 7400 ${s.slice(-6)}`, subscription_status: "pending", is_mandatory: false },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: number; email: string; last_name: string };
}

test.describe("the trash", () => {
  test("delete a subscriber, find it in the trash, restore it", async ({ asAdmin: page }) => {
    const s = await newSubscriber(page, `Trash${stamp()}`);
    await page.goto(`/subscribers/${s.id}`);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Delete Tess ${s.last_name}?` });
    await expect(dialog).toContainText("moves to the trash");
    await dialog.getByRole("button", { name: "Delete subscriber" }).click();
    await expect(toast(page, `Subscriber “Tess ${s.last_name}” deleted.`)).toBeVisible();
    expect((await page.request.get(`/api/v1/subscribers/${s.id}`)).status()).toBe(404);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trash" }).click();
    await expect(page).toHaveURL(/\/trash$/);
    await page.getByRole("searchbox", { name: "Name" }).fill(s.last_name);
    const row = page.getByRole("row", { name: new RegExp(s.last_name) });
    await expect(row).toBeVisible();
    await expect(row).toContainText("Ada Admin");
    await page.screenshot({ path: `${SCREENS}/trash-list.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await row.getByRole("button", { name: `Restore Tess ${s.last_name}` }).click();
    const restore = page.getByRole("dialog", { name: `Restore “Tess ${s.last_name}”?` });
    await expect(restore).toContainText("will be back among the subscribers");
    await page.screenshot({ path: `${SCREENS}/trash-restore-dialog.png` });
    expect(await axeViolations(page)).toEqual([]);
    await restore.getByRole("button", { name: "Restore", exact: true }).click();
    await expect(toast(page, "1 subscriber restored.")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(s.last_name) })).toHaveCount(0);
    expect((await page.request.get(`/api/v1/subscribers/${s.id}`)).status()).toBe(200);
  });

  test("restore and delete forever on a selection, each confirmed naming the records", async ({ asAdmin: page }) => {
    const tag = `Sel${stamp()}`;
    const a = await newSubscriber(page, `${tag}a`);
    const b = await newSubscriber(page, `${tag}b`);
    for (const s of [a, b]) expect((await page.request.delete(`/api/v1/subscribers/${s.id}`)).status()).toBe(204);
    await page.goto(`/trash?name=${tag}`);
    await expect(page.getByRole("row")).toHaveCount(3);
    await page.getByRole("checkbox", { name: "Select every subscriber on this page" }).check();
    await page.getByRole("button", { name: "Delete selected forever" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete 2 subscribers forever?" });
    await expect(dialog).toContainText(`“Tess ${tag}a”`);
    await expect(dialog).toContainText(`“Tess ${tag}b”`);
    await page.screenshot({ path: `${SCREENS}/trash-erase-dialog.png` });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("checkbox", { name: `Select Tess ${tag}b` }).uncheck();
    await page.getByRole("button", { name: "Delete selected forever" }).click();
    await page.getByRole("dialog", { name: `Delete “Tess ${tag}a” forever?` }).getByRole("button", { name: "Delete forever" }).click();
    await expect(toast(page, "1 subscriber deleted forever.")).toBeVisible();
    await expect(page.getByRole("row")).toHaveCount(2);
    expect((await page.request.post(`/api/v1/trash/subscribers/${a.id}/restore`)).status()).toBe(404);
  });

  test("staff have no trash", async ({ asStaff: page }) => {
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trash" })).toHaveCount(0);
    const response = await page.goto("/trash");
    expect(response?.status()).toBe(403);
  });
});

test.describe("undo", () => {
  test("a bulk change, then Undo on its page: it says who undid it and when", async ({ asStaff: page }) => {
    const tag = `Undo${stamp()}`;
    await newSubscriber(page, tag);
    await newSubscriber(page, `${tag}b`);
    await page.goto(`/subscribers?q=${tag}`);
    await page.getByRole("checkbox", { name: "Select every subscriber on this page" }).check();
    await page.getByRole("button", { name: "Set the status to Expired" }).click();
    await (await hydrated(page.getByRole("button", { name: "Change 2 subscribers" }))).click();
    const done = toast(page, "2 subscribers changed.");
    await expect(done).toBeVisible();
    await done.getByRole("button", { name: "Undo…" }).click();
    await expect(page).toHaveURL(/\/subscribers\/bulk\/[\w-]{22}$/);
    await expect(page.getByText(/^2 done \(100%\)/)).toBeVisible();
    await page.getByRole("button", { name: "Undo", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Undo this change?" });
    await expect(dialog).toContainText("It puts back the status of the 2 subscribers it changed");
    await page.screenshot({ path: `${SCREENS}/undo-dialog.png` });
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Undo the change" }).click();
    await expect(toast(page, "The change is undone.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Undo of a bulk change" })).toBeVisible();
    await expect(page.getByText("2 subscribers put back; 0 subscribers left as they are (changed since).")).toBeVisible();
    await page.getByRole("link", { name: "The change it undoes" }).click();
    await expect(page.getByText(/^Undone by Sam Staff on /)).toBeVisible();
    await expect(page.getByRole("button", { name: "Undo", exact: true })).toHaveCount(0);
    await page.screenshot({ path: `${SCREENS}/undone-change.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    const rows = (await (await page.request.get(`/api/v1/subscribers?q=${tag}`)).json()) as { data: { subscription_status: string }[] };
    expect(rows.data.map((r) => r.subscription_status)).toEqual(["pending", "pending"]);
  });
});
