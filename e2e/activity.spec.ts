import { expect, test, toast } from "./fixtures";

// Undo that can be found: a bulk change's toast (bottom right, clear of the header's Sign out)
// stays until dismissed; afterwards /activity offers the change's Undo, and the record's history
// links the change.

const SCREENS = "test-results/screens";

test("a dismissed toast's Undo is found on /activity, and the record's history links the change", async ({ asStaff: page }) => {
  const s = `${Date.now()}`.slice(-8);
  const made = await page.request.post("/api/v1/subscribers", {
    data: { first_name: "Ava", last_name: `Activity${s}`, email: `ava.${s}@example.com`, mobile: `+44 7400 ${s.slice(-6)}`, subscription_status: "pending", is_mandatory: false },
  });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: number };

  await page.goto(`/subscribers/bulk?select=${id}&change=status:expired`);
  await page.getByRole("button", { name: "Change 1 subscriber" }).click();
  const done = toast(page, "1 subscriber changed.");
  await expect(done.getByRole("button", { name: "Undo…" })).toBeVisible();
  // Past sonner's usual few seconds, it is still there, and it covers nothing of the header.
  await page.waitForTimeout(5_000);
  await expect(done).toBeVisible();
  const [box, signOut] = [await done.boundingBox(), await page.getByRole("button", { name: "Sign out" }).boundingBox()];
  expect(box!.y).toBeGreaterThan(signOut!.y + signOut!.height);
  await page.screenshot({ path: `${SCREENS}/activity-toast.png` });
  await done.getByRole("button", { name: "Close toast" }).click();
  await expect(done).toHaveCount(0);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(/\/activity$/);
  const row = page.getByRole("row").filter({ hasText: "Bulk change of 1 subscriber: set the status to expired" }).first();
  await expect(row).toContainText("Completed");
  for (const [width, height] of [[1280, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SCREENS}/activity-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole("button", { name: "Undo", exact: true }).click();
  await page.getByRole("dialog", { name: "Undo this change?" }).getByRole("button", { name: "Undo the change" }).click();
  await expect(toast(page, "The change is undone.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Undo of a bulk change" })).toBeVisible();
  const undone = await page.request.get(`/api/v1/subscribers/${id}`);
  expect(((await undone.json()) as { subscription_status: string }).subscription_status).toBe("pending");

  await page.goto("/activity");
  const after = page.getByRole("row").filter({ hasText: "Bulk change of 1 subscriber: set the status to expired" }).first();
  await expect(after).toContainText("Undone");
  await expect(after.getByRole("button", { name: "Undo", exact: true })).toHaveCount(0);
  const change = await after.getByRole("link").getAttribute("href");

  await page.goto(`/subscribers/${id}`);
  await page.getByRole("region", { name: "History" }).getByRole("link", { name: "the bulk change" }).first().click();
  await expect(page).toHaveURL(new RegExp(`${change}$`));
  await expect(page.getByText(/^Undone by Sam Staff on /)).toBeVisible();
});
