import type { Browser, Page } from "@playwright/test";
import { axeViolations, expect, openRowMenu, repeatedLandmarks, signInByApi, test, USERS, type RoleName } from "./fixtures";

// Every page of the console, as staff and as an administrator, at desktop and phone width: axe
// (WCAG 2.1 A and AA) finds no serious or critical violation. Pages only administrators see are
// visited as an administrator; staff get the "forbidden" page there, which is checked too.

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);

type Check = (what: string) => Promise<void>;

/** Opens `path` and checks it once its main heading is there. */
async function visit(page: Page, check: Check, path: string, what = path) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(500);
  await expect(page.locator("h1").first()).toBeVisible();
  await check(what);
}

async function branchId(page: Page) {
  const body = (await (await page.request.get("/api/v1/branches")).json()) as { data: { id: number }[] };
  return body.data[0]!.id;
}

/** A subscriber of the test's own, through the API; a second with the same email is a duplicate of the first. */
async function newSubscriber(page: Page, email = `axel.${stamp()}@example.com`) {
  const s = stamp();
  const response = await page.request.post("/api/v1/subscribers", {
    data: { first_name: "Axel", last_name: `Axe${s}`, email, mobile: `+44 7400 ${s.slice(-6)}`, subscription_status: "pending", is_mandatory: false },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: number; email: string };
}

/** Uploads a sheet of `rows` new subscribers, checks its preview, imports it and checks the result; returns the sheet's name. */
async function importSheet(page: Page, check: Check, rows: number) {
  const s = stamp();
  const sheet = `Axe ${s}`;
  const mobile = (i: number) => `+44 7400 ${String((Number(s.slice(-4)) * 211 + i) % 1_000_000).padStart(6, "0")}`;
  const lines = Array.from({ length: rows }, (_, i) => `Ida,Axe${s}x${i},ida.${s}.${i}@example.com,${mobile(i)}`);
  await visit(page, check, "/subscribers/import", "import");
  await page.getByLabel("File").setInputFiles({ name: `${sheet}.csv`, mimeType: "text/csv", buffer: Buffer.from(["first_name,last_name,email,mobile", ...lines].join("\n")) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("button", { name: "Start import" })).toBeEnabled();
  await check("import preview");
  await page.getByRole("button", { name: "Start import" }).click();
  // Exact: Next's route announcer also reads out the page title, which names the status.
  await expect(page.getByText("Completed", { exact: true })).toBeVisible({ timeout: 30_000 });
  await check("import finished");
  return sheet;
}

type Visit = { name: string; roles: readonly RoleName[]; run: (page: Page, check: Check, role: RoleName) => Promise<void> };
const BOTH = ["staff", "admin"] as const;
const ADMIN = ["admin"] as const;

const PAGES: Visit[] = [
  {
    name: "subscriber list, and its last page",
    roles: BOTH,
    run: async (page, check) => {
      await visit(page, check, "/subscribers", "subscriber list");
      await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: /^\d+$/ }).last().click();
      await expect(page).toHaveURL(/[?&]page=\d+/);
      await check("subscriber list, last page");
    },
  },
  {
    name: "subscriber list, filters open",
    roles: BOTH,
    run: async (page, check) => {
      await visit(page, check, "/subscribers?subscription_status=pending", "subscriber list, one filter");
      await page.getByRole("search", { name: "Filters" }).getByText("Filters").click();
      await expect(page.getByRole("combobox", { name: "Status" })).toBeVisible();
      await check("filters open");
    },
  },
  {
    name: "subscriber list, nothing found",
    roles: BOTH,
    run: async (page, check) => {
      await page.goto("/subscribers?q=no-such-subscriber-anywhere");
      await expect(page.getByText("No subscribers match these filters")).toBeVisible();
      await check("nothing found");
    },
  },
  { name: "new subscriber", roles: BOTH, run: (page, check) => visit(page, check, "/subscribers/new") },
  {
    name: "subscriber record (a duplicate) and its edit form",
    roles: BOTH,
    run: async (page, check) => {
      const first = await newSubscriber(page);
      const duplicate = await newSubscriber(page, first.email);
      // Opened from a filtered, sorted list: the breadcrumb leads back to it.
      const back = `?back=${encodeURIComponent("/subscribers?subscription_status=pending&sort=last_name&page=2")}`;
      await visit(page, check, `/subscribers/${duplicate.id}${back}`, "record");
      await visit(page, check, `/subscribers/${duplicate.id}/edit${back}`, "edit");
    },
  },
  {
    name: "duplicates review, its Not duplicates confirmation, and (admins) the merge page",
    roles: BOTH,
    run: async (page, check) => {
      const first = await newSubscriber(page);
      await newSubscriber(page, first.email.toUpperCase());
      await visit(page, check, `/subscribers/duplicates?q=${encodeURIComponent(first.email)}`, "duplicates");
      const group = page.getByRole("region", { name: new RegExp(`Same email: ${first.email.replace(/[.+]/g, "\\$&")}`) });
      await group.getByRole("button", { name: /^Not duplicates/ }).click();
      await expect(page.getByRole("dialog", { name: "Not duplicates?" })).toBeVisible();
      await check("Not duplicates confirmation");
      await page.keyboard.press("Escape");
      const merge = group.getByRole("link", { name: /^Merge…/ });
      if (await merge.count()) {
        await merge.click();
        await expect(page.getByRole("heading", { name: "Merge 2 subscribers" })).toBeVisible();
        await check("merge");
      }
    },
  },
  { name: "record not found", roles: BOTH, run: (page, check) => visit(page, check, "/subscribers/999999999") },
  { name: "columns", roles: BOTH, run: (page, check) => visit(page, check, "/subscribers/columns") },
  {
    name: "subscriber list, Views menu open on a saved view, and the views page",
    roles: BOTH,
    run: async (page, check) => {
      const name = `Axe view ${stamp()}`;
      const made = await page.request.post("/api/v1/views", { data: { resource: "subscribers", name, query: "subscription_status=active" } });
      expect(made.status()).toBe(201);
      await visit(page, check, "/subscribers?subscription_status=active", "subscriber list on a view");
      await page.locator("summary", { hasText: /^Views/ }).click();
      await expect(page.getByRole("navigation", { name: "Saved views" }).getByRole("link", { name })).toBeVisible();
      await check("Views menu open");
      await page.getByRole("button", { name: `Edit view “${name}”` }).click();
      await expect(page.getByRole("button", { name: `Rename ${name}` })).toBeVisible();
      await check("Views menu, a view's actions open");
      await visit(page, check, "/views?resource=subscribers", "views page");
      await page.getByRole("button", { name: `Rename ${name}` }).click();
      await expect(page.getByRole("textbox", { name: `New name of the view “${name}”` })).toBeFocused();
      await check("views page, a view renamed in place");
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: `Delete ${name}` }).click();
      await expect(page.getByRole("dialog", { name: `Delete the view “${name}”?` })).toBeVisible();
      await check("view delete confirmation");
      await page.getByRole("button", { name: "Delete view" }).click();
      await expect(page.getByRole("heading", { name })).toHaveCount(0);
    },
  },
  {
    name: "branch list, Views menu open",
    roles: BOTH,
    run: async (page, check) => {
      await visit(page, check, "/branches?view=all", "branch list, all");
      await page.locator("summary", { hasText: /^Views/ }).click();
      await expect(page.getByRole("navigation", { name: "Saved views" })).toBeVisible();
      await check("branch Views menu open");
    },
  },
  {
    name: "bulk change confirmation",
    roles: BOTH,
    run: async (page, check) => visit(page, check, `/subscribers/bulk?select=${(await newSubscriber(page)).id}&change=status:active`),
  },
  { name: "import: upload, preview, finished", roles: BOTH, run: async (page, check) => void (await importSheet(page, check, 2)) },
  {
    // More than a selection's worth, deleted by their filter: a job, with a progress page.
    name: "bulk delete: confirmation and progress",
    roles: ADMIN,
    run: async (page, check) => {
      const sheet = await importSheet(page, async () => {}, 101);
      await visit(page, check, `/subscribers/bulk?scope=all&change=delete&sheet=${encodeURIComponent(sheet)}`, "confirmation");
      await page.getByRole("button", { name: "Delete 101 subscribers" }).click();
      await expect(page).toHaveURL(/\/subscribers\/bulk\/[\w-]{22}$/);
      await expect(page.getByRole("heading", { name: "Bulk change" })).toBeVisible();
      await check("progress");
    },
  },
  {
    // A deleted subscriber in the trash, with its restore confirmation open; staff get the 403 page.
    name: "trash",
    roles: BOTH,
    run: async (page, check) => {
      const admin = (await page.request.get("/api/v1/users?role=admin")).status() === 200;
      if (admin) {
        const s = await newSubscriber(page);
        expect((await page.request.delete(`/api/v1/subscribers/${s.id}`)).status()).toBe(204);
      }
      await visit(page, check, "/trash", "trash");
      if (!admin) return;
      await page.getByRole("table").getByRole("button", { name: /^Restore / }).first().click();
      await expect(page.getByRole("dialog", { name: /^Restore / })).toBeVisible();
      await check("trash, restore confirmation");
    },
  },
  {
    // Webhook endpoints with the new-endpoint form open, and an endpoint's deliveries; staff get the 403 page.
    name: "webhooks",
    roles: BOTH,
    run: async (page, check) => {
      const admin = (await page.request.get("/api/v1/webhooks")).status() === 200;
      if (admin) {
        const made = await page.request.post("/api/v1/webhooks", { data: { url: `https://93.184.215.14/axe/${stamp()}`, description: "Axe", events: ["subscriber.created"] } });
        expect(made.status()).toBe(201);
        const { id } = (await made.json()) as { id: number };
        expect((await page.request.post(`/api/v1/webhooks/${id}/test`)).status()).toBe(202);
        await visit(page, check, `/webhooks/${id}`, "webhook deliveries");
      }
      await visit(page, check, "/webhooks", "webhooks");
      if (!admin) return;
      await page.getByRole("button", { name: "New endpoint" }).click();
      await expect(page.getByRole("dialog", { name: "New endpoint" })).toBeVisible();
      await check("new endpoint dialog");
    },
  },
  {
    // A change made at once, on its page with Undo, then undone.
    name: "bulk change: undo",
    roles: BOTH,
    run: async (page, check) => {
      const made = await page.request.post("/api/v1/subscribers/bulk", { data: { ids: [(await newSubscriber(page)).id], change: { subscription_status: "active" } } });
      expect(made.status()).toBe(200);
      const { id } = (await made.json()) as { id: string };
      await visit(page, check, `/subscribers/bulk/${id}`, "bulk change with Undo");
      await page.getByRole("button", { name: "Undo", exact: true }).click();
      await check("undo confirmation");
      await page.getByRole("button", { name: "Undo the change" }).click();
      await expect(page.getByRole("heading", { name: "Undo of a bulk change" })).toBeVisible();
      await check("undo done");
    },
  },
  {
    // One's changes with their Undo (an administrator also picks whose, behind Filters).
    name: "activity",
    roles: BOTH,
    run: async (page, check) => {
      const made = await page.request.post("/api/v1/subscribers/bulk", { data: { ids: [(await newSubscriber(page)).id], change: { subscription_status: "active" } } });
      expect(made.status()).toBe(200);
      await visit(page, check, "/activity");
      await page.getByRole("button", { name: "Undo", exact: true }).first().click();
      await check("activity, undo confirmation");
    },
  },
  { name: "branch list", roles: BOTH, run: (page, check) => visit(page, check, "/branches") },
  { name: "new branch", roles: ADMIN, run: (page, check) => visit(page, check, "/branches/new") },
  { name: "edit branch", roles: BOTH, run: async (page, check) => visit(page, check, `/branches/${await branchId(page)}/edit`) },
  { name: "user list", roles: BOTH, run: (page, check) => visit(page, check, "/users") },
  { name: "new user", roles: ADMIN, run: (page, check) => visit(page, check, "/users/new") },
  {
    name: "a staff member's branches",
    roles: ADMIN,
    run: async (page, check) => {
      await visit(page, check, "/users?role=staff", "staff users");
      // Every row is staff's: the first row under the header has Branches… in its menu.
      await openRowMenu(page.getByRole("row").nth(1));
      await check("users, a row's menu open");
      await page.getByRole("button", { name: /^Branches of / }).first().click();
      const dialog = page.getByRole("dialog", { name: /^Branches of / });
      await dialog.getByLabel("Only the branches ticked below").check();
      await expect(dialog.getByLabel("Search branches")).toBeVisible();
      await check("branches dialog");
    },
  },
  { name: "audit log", roles: BOTH, run: (page, check) => visit(page, check, "/audit") },
  { name: "account", roles: BOTH, run: (page, check) => visit(page, check, "/account") },
  {
    // Starting the set-up enrolls nobody: the secret is used only once confirmed with a code.
    name: "two-factor set-up",
    roles: BOTH,
    run: async (page, check, role) => {
      await visit(page, check, "/account/two-factor", "two-factor");
      const start = page.getByRole("button", { name: "Set up two-factor" });
      if (await start.isVisible()) {
        // The secret is shown only after the current password.
        await page.getByLabel("Password").fill(USERS[role].password);
        await start.click();
      }
      await expect(page.getByRole("img", { name: "QR code of your two-factor secret" })).toBeVisible();
      await check("two-factor, QR code and secret");
    },
  },
];

async function contextFor(browser: Browser, viewport: { width: number; height: number }, role: RoleName | null) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  if (role) await signInByApi(page, role);
  return { context, page };
}

for (const [screen, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${screen} width`, () => {
    // axe reads the whole page: a list of a hundred rows takes it a while on a busy machine.
    test.describe.configure({ timeout: 120_000 });

    test("signed out: sign-in, set-password and API documentation pages", async ({ browser }) => {
      const admin = await contextFor(browser, viewport, "admin");
      const made = await admin.page.request.post("/api/v1/users", { data: { name: "Axe Newcomer", email: `axe.${stamp()}@example.com`, role: "staff" } });
      expect(made.status()).toBe(201);
      const { set_password_url } = (await made.json()) as { set_password_url: string };
      await admin.context.close();

      const { context, page } = await contextFor(browser, viewport, null);
      const found: string[] = [];
      const check: Check = async (what) => void found.push(...(await axeViolations(page, what)));
      await visit(page, check, "/login", "sign-in");
      await page.getByRole("button", { name: "Sign in" }).click(); // empty: the form's errors
      await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
      await check("sign-in with errors");
      await visit(page, check, new URL(set_password_url).pathname, "set password");
      await visit(page, check, "/set-password/not-a-real-link-0000000000000000000000000000", "set password, unknown link");
      await visit(page, check, "/api/docs", "API documentation");
      // Its landmarks are its few sections, each named once: an operation or a record is an article
      // (the tag Activity and the record Activity share a name).
      await expect(page.getByRole("region", { name: "Activity", exact: true })).toHaveCount(1);
      await expect(page.getByRole("article", { name: "Activity", exact: true })).toHaveCount(1);
      expect(await repeatedLandmarks(page)).toEqual([]);
      // It fits the width (no sideways scroll on a phone) and leads back to the console.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await expect(page.getByRole("link", { name: "← Back to the console" })).toHaveAttribute("href", "/subscribers");
      await context.close();
      expect(found, found.join("\n\n")).toEqual([]);
    });

    for (const role of BOTH) {
      for (const visitPage of PAGES.filter((p) => p.roles.includes(role))) {
        test(`${role}: ${visitPage.name}`, async ({ browser }) => {
          const { context, page } = await contextFor(browser, viewport, role);
          const found: string[] = [];
          await visitPage.run(page, async (what) => void found.push(...(await axeViolations(page, `${role}, ${screen}, ${what}`))), role);
          await context.close();
          expect(found, found.join("\n\n")).toEqual([]);
        });
      }
    }
  });
}
