import { expect, listToolbar, queryOf, test } from "./fixtures";

// The audit log in words: an edit's sentence, its field-by-field change and its record's link,
// a bulk change linked, and the action filter by readable names in areas.

const SCREENS = "test-results/screens";

test("an edit reads as a sentence with its field changes and links; the action filter is grouped", async ({ asAdmin: page }) => {
  const s = `${Date.now()}`;
  const made = await page.request.post("/api/v1/subscribers", {
    data: { first_name: "Gregory", last_name: `Kunze${s}`, email: `gregory.${s}@example.com`, mobile: `+44 7400 ${s.slice(-6)}`, subscription_status: "pending", is_mandatory: false },
  });
  const { id } = (await made.json()) as { id: number };
  await page.goto(`/subscribers/${id}/edit`);
  await page.getByLabel("Last name").fill(`Kunze-Meyer${s}`);
  await page.getByLabel("Subscription status").selectOption("active");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(new RegExp(`/subscribers/${id}$`));
  expect((await page.request.post("/api/v1/subscribers/bulk", { data: { ids: [id], change: { is_mandatory: true } } })).status()).toBe(200);

  // The action filter: readable names, in areas; the address keeps the raw code.
  await page.goto("/audit");
  const toolbar = listToolbar(page, "Who");
  const action = (await toolbar.openFilters()).getByRole("combobox", { name: "Action" });
  await expect(action.locator("optgroup")).toHaveCount(9);
  await expect(action.locator('optgroup[label="Subscribers"] option').first()).toHaveText("Subscriber created");
  await action.selectOption({ label: "Subscriber changed" });
  await expect(page).toHaveURL(/action=subscriber\.update/);
  expect(queryOf(page)).toEqual({ action: "subscriber.update" });
  await expect(toolbar.chip("Action: Subscriber changed")).toBeVisible();
  await page.keyboard.press("Escape");

  const row = page.getByRole("row").filter({ hasText: `Kunze-Meyer${s}` }).first();
  await expect(row).toContainText(`Changed last name and status of Gregory Kunze-Meyer${s}`);
  await expect(row).toContainText(`Last name: Kunze${s} → Kunze-Meyer${s}`);
  await expect(row).toContainText("Status: Pending → Active");
  await expect(row).not.toContainText("{");
  await expect(row.getByRole("link", { name: `Gregory Kunze-Meyer${s}` })).toHaveAttribute("href", `/subscribers/${id}`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SCREENS}/audit-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENS}/audit-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });

  // A bulk change is a link to it.
  await page.goto("/audit?action=subscriber.bulk_change");
  const bulk = page.getByRole("row").filter({ hasText: "Changed mandatory of 1 subscriber in a bulk change" }).first();
  await bulk.getByRole("link", { name: "a bulk change" }).click();
  await expect(page).toHaveURL(/\/subscribers\/bulk\/[\w-]+$/);
});
