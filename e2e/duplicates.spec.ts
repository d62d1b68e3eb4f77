import type { Page } from "@playwright/test";
import { axeViolations, expect, test, toast } from "./fixtures";

// The duplicates review in the browser: a group found from the subscriber list, its differences
// marked; "Not duplicates" by staff; a merge by an administrator choosing values, the merged found
// in the trash, and the merge undone. axe checks each screen; screenshots are looked at.

const SCREENS = "test-results/screens";
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);

/** A subscriber through the API, as the signed-in user. */
async function make(page: Page, fields: { first_name: string; email: string; mobile: string }) {
  const response = await page.request.post("/api/v1/subscribers", {
    data: { last_name: "Twice", subscription_status: "active", is_mandatory: false, ...fields },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: number; email: string };
}

/** A group's section on the review page, by the key it shares. */
const group = (page: Page, rule: string, key: string) => page.getByRole("region", { name: `Same ${rule}: ${key} · 2 subscribers` });

test.describe("duplicates", () => {
  test("staff review a group and mark it as not duplicates", async ({ asStaff: page }) => {
    const s = stamp();
    const email = `nora.${s}@dups.test`;
    const first = await make(page, { first_name: "Nora", email, mobile: `+44 7400 ${s.slice(-6)}` });
    const second = await make(page, { first_name: "Norah", email: email.toUpperCase(), mobile: `+44 7401 ${s.slice(-6)}` });

    await page.goto("/subscribers");
    await page.getByRole("link", { name: /^Duplicates/ }).click();
    await expect(page).toHaveURL(/\/subscribers\/duplicates$/);
    await page.getByRole("searchbox", { name: "Search" }).fill(s);
    await expect(page).toHaveURL(new RegExp(`q=${s}`));
    const section = group(page, "email", email);
    await expect(section).toBeVisible();
    // Side by side, newest first, what differs marked.
    await expect(section.getByRole("columnheader")).toHaveText(["Field", `#${second.id} Norah Twice`, `#${first.id} Nora Twice`]);
    await expect(section.getByRole("rowheader", { name: "First name Differs" })).toBeVisible();
    await expect(section.getByRole("rowheader", { name: "Last name", exact: true })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/duplicates-review.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await section.getByRole("button", { name: /^Not duplicates/ }).click();
    const dialog = page.getByRole("dialog", { name: "Not duplicates?" });
    await expect(dialog).toContainText(`#${first.id} Nora Twice`);
    await page.screenshot({ path: `${SCREENS}/duplicates-dismiss-confirm.png` });
    await dialog.getByRole("button", { name: "Mark as not duplicates" }).click();
    await expect(toast(page, "Marked 2 subscribers as not duplicates of each other.")).toBeVisible();
    await expect(section).toHaveCount(0);

    await page.goto(`/subscribers/${second.id}`);
    await expect(page.getByText(`Not a duplicate of #${first.id}`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Take back" })).toHaveCount(0);
    await expect(page.getByText("marked it as not a duplicate of others")).toBeVisible();
  });

  test("an administrator merges a group choosing values, and undoes the merge", async ({ asAdmin: page }) => {
    const s = stamp();
    const email = `mel.${s}@dups.test`;
    const first = await make(page, { first_name: "Mel", email, mobile: `+44 7402 ${s.slice(-6)}` });
    const second = await make(page, { first_name: "Melanie", email: `Mel.${s}@dups.test`, mobile: `+44 7403 ${s.slice(-6)}` });

    await page.goto(`/subscribers/duplicates?q=${s}`);
    await group(page, "email", email).getByRole("link", { name: /^Merge…/ }).click();
    await expect(page.getByRole("heading", { name: "Merge 2 subscribers" })).toBeVisible();
    // The earliest stays by default, and its own values are chosen for it.
    await expect(page.getByRole("radio", { name: `Keep #${first.id}` })).toBeChecked();
    await expect(page.getByRole("radio", { name: `First name from #${first.id}` })).toBeChecked();
    await expect(page.getByRole("radio", { name: `Mobile from #${first.id}` })).toBeChecked();
    // A value chosen by hand stays when another survivor is chosen; the others follow the survivor.
    await page.getByRole("radio", { name: `Email from #${second.id}` }).check();
    await page.getByRole("radio", { name: `Keep #${second.id}` }).check();
    await expect(page.getByRole("radio", { name: `First name from #${second.id}` })).toBeChecked();
    await expect(page.getByRole("radio", { name: `Email from #${second.id}` })).toBeChecked();
    await page.getByRole("radio", { name: `Keep #${first.id}` }).check();
    await expect(page.getByRole("radio", { name: `First name from #${first.id}` })).toBeChecked();
    await page.getByRole("radio", { name: `Mobile from #${second.id}` }).check();
    await page.screenshot({ path: `${SCREENS}/duplicates-merge.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Merge", exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`/subscribers/${first.id}$`));
    await expect(toast(page, `Merged 2 subscribers into #${first.id}.`)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Mel Twice" })).toBeVisible();
    await expect(page.getByText(`Mel.${s}@dups.test`).first()).toBeVisible();
    // The first name kept, the email and the mobile chosen.
    await expect(page.getByText(`From #${second.id} (now in the trash); values taken: Email from #${second.id}, Mobile from #${second.id}.`)).toBeVisible();
    // The merged one is in the trash: its record is gone.
    expect((await page.request.get(`/api/v1/subscribers/${second.id}`)).status()).toBe(404);
    await page.screenshot({ path: `${SCREENS}/duplicates-merged-record.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Undo merge" }).click();
    const dialog = page.getByRole("dialog", { name: "Undo this merge?" });
    await expect(dialog).toContainText(`#${second.id} come back from the trash`);
    await dialog.getByRole("button", { name: "Undo merge" }).click();
    await expect(toast(page, "The merge is undone: the merged subscribers are back.")).toBeVisible();
    await expect(page.getByText(email, { exact: true }).first()).toBeVisible();
    expect((await page.request.get(`/api/v1/subscribers/${second.id}`)).status()).toBe(200);
    await expect(page.getByText("undid a merge into it")).toBeVisible();
  });
});
