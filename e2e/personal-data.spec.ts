import { axeViolations, expect, signInByApi, test, toast } from "./fixtures";

// A person's data from the record page (administrators): the archive downloads, the erasure's
// confirmation names what goes and that it cannot be undone, and afterwards the records are gone.
// Staff see neither. axe on the page and its confirmation.

const SHOTS = "docs/screenshots";
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);

test("a person's data: downloaded and erased from the record page, by administrators only", async ({ asAdmin: page, browser }) => {
  const s = stamp();
  const email = `perdita.${s}@example.com`;
  const make = async (mobile: string) => {
    const response = await page.request.post("/api/v1/subscribers", { data: { first_name: "Perdita", last_name: `Person${s}`, email, mobile, subscription_status: "active", is_mandatory: false } });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { id: number }).id;
  };
  const id = await make(`+44 7400 ${s.slice(-6)}`);
  const other = await make(`+44 7401 ${s.slice(-6)}`);
  expect((await page.request.delete(`/api/v1/subscribers/${other}`)).status()).toBe(204);

  await page.goto(`/subscribers/${id}`);
  const section = page.getByRole("region", { name: "Personal data" });
  await expect(section).toContainText("2 records sharing this email or mobile");
  const download = page.waitForEvent("download");
  await section.getByRole("link", { name: "Download personal data" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^personal-data-\d{4}-\d{2}-\d{2}\.zip$/);
  await page.screenshot({ path: `${SHOTS}/person-record-actions.png`, fullPage: true });
  expect(await axeViolations(page)).toEqual([]);

  await section.getByRole("button", { name: "Erase this person…" }).click();
  const dialog = page.getByRole("dialog", { name: `Erase Perdita Person${s} everywhere?` });
  await expect(dialog).toContainText(`Every record sharing ${email}`);
  await expect(dialog).toContainText("1 subscriber record, 1 record in the trash, 2 records in all");
  await expect(dialog).toContainText("This cannot be undone.");
  await page.screenshot({ path: `${SHOTS}/person-erase-confirm.png` });
  expect(await axeViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Erase 2 records" }).click();
  await expect(toast(page, "Person erased: 2 records.")).toBeVisible();
  await expect(page).toHaveURL(/\/subscribers$/);
  expect((await page.request.get(`/api/v1/subscribers/${id}`)).status()).toBe(404);
  expect((await page.request.get(`/api/v1/people/export?email=${encodeURIComponent(email)}`)).status()).toBe(404);

  // Staff: neither action, and the API refuses both.
  const staff = await browser.newContext();
  const staffPage = await staff.newPage();
  await signInByApi(staffPage, "staff");
  const made = await staffPage.request.post("/api/v1/subscribers", {
    data: { first_name: "Stan", last_name: `Staff${s}`, email: `stan.${s}@example.com`, mobile: `+44 7402 ${s.slice(-6)}`, subscription_status: "active", is_mandatory: false },
  });
  const kept = (await made.json()) as { id: number };
  await staffPage.goto(`/subscribers/${kept.id}`);
  await expect(staffPage.getByRole("heading", { name: `Stan Staff${s}` })).toBeVisible();
  await expect(staffPage.getByRole("region", { name: "Personal data" })).toHaveCount(0);
  await expect(staffPage.getByRole("button", { name: "Erase this person…" })).toHaveCount(0);
  expect((await staffPage.request.get(`/api/v1/people/export?subscriber_id=${kept.id}`)).status()).toBe(403);
  expect((await staffPage.request.post("/api/v1/people/erase", { data: { subscriber_id: kept.id, confirm: true } })).status()).toBe(403);
  await staff.close();
});
