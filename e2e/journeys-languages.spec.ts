import { Secret, TOTP } from "otpauth";
import type { Browser, Page } from "@playwright/test";
import { expect, hydrated, test } from "./fixtures";
import { BROWSER_LOCALE, words } from "./languages";

// The main journeys in French and in Arabic, each step found by what the page says in that
// language (the catalogue's words for the English a spec would use): filter and page, create and
// edit, export, views, a bulk change, duplicates, the trash, and signing in with two-factor.

const PASSWORD = "journey-pass-0123456789";
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);
const codeOf = (secret: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

for (const lang of ["fr", "ar"] as const) {
  const { L } = words(lang);
  const dir = lang === "ar" ? "rtl" : "ltr";

  test.describe(`journeys in ${lang}`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    test.describe.configure({ timeout: 120_000 });

    const inLanguage = async (page: Page) => {
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.locator("html")).toHaveAttribute("dir", dir);
    };
    const subscriber = async (page: Page, last: string, email = `${last.toLowerCase()}@example.com`) => {
      const response = await page.request.post("/api/v1/subscribers", {
        data: { first_name: "Nadia", last_name: last, email, mobile: `+44 7400 ${stamp().slice(-6)}`, subscription_status: "pending", is_mandatory: false },
      });
      expect(response.status()).toBe(201);
      return (await response.json()) as { id: number; last_name: string; email: string };
    };

    test("filter, then page through the list", async ({ asStaff: page }) => {
      await page.goto("/subscribers?is_mandatory=true");
      await inLanguage(page);
      const filters = page.getByRole("search", { name: L("Filters") });
      await filters.locator("summary").click();
      await filters.getByRole("combobox", { name: L("Status") }).selectOption("active");
      await expect(page).toHaveURL(/subscription_status=active/);
      const pager = page.getByRole("navigation", { name: L("Pagination") });
      await pager.getByRole("link", { name: "2", exact: true }).click();
      await expect(page).toHaveURL(/is_mandatory=true.*page=2/);
      await expect(pager.getByRole("link", { name: "2", exact: true })).toHaveAttribute("aria-current", "page");
      await pager.getByRole("link", { name: L("Next") }).click();
      await expect(page).toHaveURL(/page=3/);
      await pager.getByRole("link", { name: L("Previous") }).click();
      await expect(page).toHaveURL(/page=2/);
    });

    test("create a subscriber, then edit it", async ({ asStaff: page }) => {
      const last = `Journey${stamp()}`;
      await page.goto("/subscribers");
      await page.getByRole("link", { name: L("New subscriber") }).click();
      await expect(page).toHaveURL(/\/subscribers\/new$/);
      await inLanguage(page);
      await page.getByLabel(L("First name"), { exact: true }).fill("Nadia");
      await page.getByLabel(L("Last name"), { exact: true }).fill(last);
      await page.getByLabel(L("Email"), { exact: true }).fill(`${last.toLowerCase()}@example.com`);
      await page.getByLabel(L("Mobile"), { exact: true }).fill(`+44 7400 ${stamp().slice(-6)}`);
      await page.getByLabel(L("Subscription status")).selectOption("active");
      await page.getByRole("button", { name: L("Create subscriber") }).click();
      await expect(page).toHaveURL(/\/subscribers$/);
      const found = (await (await page.request.get(`/api/v1/subscribers?last_name=${last}`)).json()) as { data: { id: number }[] };
      expect(found.data).toHaveLength(1);

      await page.goto(`/subscribers/${found.data[0]!.id}/edit`);
      await inLanguage(page);
      await page.getByLabel(L("Last name"), { exact: true }).fill(`${last}x`);
      await page.getByRole("button", { name: L("Save changes") }).click();
      await expect.poll(async () => ((await (await page.request.get(`/api/v1/subscribers/${found.data[0]!.id}`)).json()) as { last_name: string }).last_name).toBe(`${last}x`);
    });

    test("request an export and download it", async ({ asStaff: page }) => {
      await page.goto("/subscribers?is_mandatory=true&subscription_status=expired");
      await inLanguage(page);
      const panel = page.getByRole("region", { name: new RegExp(escape(L("Export file"))) });
      // The file of this request, not an older one of the same user's (another spec's), once it is made:
      // until the request is recorded, the status is the older export's, whose file this one replaces.
      const status = async () =>
        (await (await page.request.get("/api/v1/subscribers/export")).json()) as { downloadable_file_status: string; downloadable_file: string; requested_at: string | null };
      const before = (await status()).requested_at;
      await panel.getByRole("button", { name: L("Request export") }).click();
      await expect.poll(async () => ((s) => (s.requested_at === before ? "older request" : s.downloadable_file_status))(await status()), { timeout: 30_000 }).toBe("completed");
      await page.reload();
      const download = panel.getByRole("link", { name: L("Download") }).and(page.locator(`a[href="${(await status()).downloadable_file}"]`)).first();
      await expect(download).toBeVisible({ timeout: 30_000 });
      const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
      expect(file.suggestedFilename()).toMatch(/^subscribers-\d{8}-\d{4}\.csv$/);
    });

    test("save a view and open it from a clean list", async ({ asStaff: page }) => {
      const name = `Journey view ${stamp()}`;
      await page.goto("/subscribers?subscription_status=pending&sort=last_name");
      await inLanguage(page);
      const views = page.locator("summary", { hasText: new RegExp(`^${escape(L("Views"))}`) });
      await views.click();
      await page.getByRole("textbox", { name: L("Name"), exact: true }).fill(name);
      await page.getByRole("button", { name: L("Save view") }).click();
      await expect.poll(async () => ((await (await page.request.get("/api/v1/views?resource=subscribers")).json()) as { data: { name: string }[] }).data.some((v) => v.name === name)).toBe(true);
      await page.goto("/subscribers?view=all");
      await views.click();
      await page.getByRole("navigation", { name: L("Saved views") }).getByRole("link", { name }).click();
      await expect(page).toHaveURL(/subscription_status=pending/);
    });

    test("a bulk change, and its undo", async ({ asStaff: page }) => {
      const tag = `Bulk${stamp()}`;
      await subscriber(page, tag);
      await subscriber(page, `${tag}b`);
      await page.goto(`/subscribers?q=${tag}`);
      await inLanguage(page);
      await page.getByRole("checkbox", { name: L("Select every subscriber on this page") }).check();
      await page.getByRole("button", { name: L("Set the status to Expired", { status: "expired" }) }).click();
      await (await hydrated(page.getByRole("button", { name: L("Change 2 subscribers", { count: 2, n: "2" }) }))).click();
      const statuses = async () => ((await (await page.request.get(`/api/v1/subscribers?q=${tag}`)).json()) as { data: { subscription_status: string }[] }).data.map((r) => r.subscription_status);
      await expect.poll(statuses).toEqual(["expired", "expired"]);
      // The toast leads to the change's page, whose Undo asks before it puts the statuses back.
      await page.getByRole("button", { name: L("Undo…") }).click();
      await expect(page).toHaveURL(/\/subscribers\/bulk\/[\w-]{22}$/);
      await inLanguage(page);
      await (await hydrated(page.getByRole("button", { name: L("Undo"), exact: true }))).click();
      await page.getByRole("dialog").getByRole("button", { name: L("Undo the change") }).click();
      await expect(page.getByText(L("The change is undone."))).toBeVisible();
      await expect.poll(statuses).toEqual(["pending", "pending"]);
    });

    test("review duplicates and mark a group as not duplicates", async ({ asStaff: page }) => {
      const last = `Twin${stamp()}`;
      const first = await subscriber(page, last);
      await subscriber(page, `${last}b`, first.email.toUpperCase());
      await page.goto(`/subscribers/duplicates?q=${encodeURIComponent(first.email)}`);
      await inLanguage(page);
      await (await hydrated(page.getByRole("button", { name: new RegExp(`^${escape(L("Not duplicates"))}`) }).first())).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: L("Mark as not duplicates") }).click();
      await expect(page.getByRole("button", { name: new RegExp(`^${escape(L("Not duplicates"))}`) })).toHaveCount(0);
    });

    test("find a deleted subscriber in the trash and restore it", async ({ asAdmin: page }) => {
      const s = await subscriber(page, `Trash${stamp()}`);
      expect((await page.request.delete(`/api/v1/subscribers/${s.id}`)).status()).toBe(204);
      await page.goto("/subscribers");
      await page.getByRole("navigation", { name: L("Main") }).getByRole("link", { name: L("Trash") }).click();
      await expect(page).toHaveURL(/\/trash$/);
      await inLanguage(page);
      await page.getByRole("searchbox", { name: L("Name") }).fill(s.last_name);
      const row = page.getByRole("row", { name: new RegExp(s.last_name) });
      await (await hydrated(row.getByRole("button").first())).click();
      await page.getByRole("dialog").getByRole("button", { name: L("Restore"), exact: true }).click();
      await expect.poll(async () => (await page.request.get(`/api/v1/subscribers/${s.id}`)).status()).toBe(200);
    });

    test("set up two-factor and sign in with a code", async ({ asAdmin: admin, browser }) => {
      const email = `journey.${stamp()}@example.com`;
      expect((await admin.request.post("/api/v1/users", { data: { name: "Jo Journey", email, role: "staff", password: PASSWORD } })).status()).toBe(201);
      const signIn = async (b: Browser, path: string) => {
        const context = await b.newContext({ locale: BROWSER_LOCALE[lang] });
        const page = await context.newPage();
        await page.goto(path);
        await inLanguage(page);
        await page.getByLabel(L("Email"), { exact: true }).fill(email);
        await page.getByLabel(L("Password")).fill(PASSWORD);
        await page.getByRole("button", { name: L("Sign in") }).click();
        return page;
      };
      const page = await signIn(browser, "/login");
      await expect(page).toHaveURL(/\/subscribers/);
      await page.goto("/account/two-factor");
      await inLanguage(page);
      await page.getByLabel(L("Password"), { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: L("Set up two-factor") }).click();
      const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
      const confirmedAt = Date.now();
      await page.getByLabel(L("Code from the app")).fill(codeOf(secret, confirmedAt));
      await page.getByRole("button", { name: L("Turn on") }).click();
      await expect(page.getByRole("list", { name: L("Recovery codes") }).getByRole("listitem")).toHaveCount(10);
      await page.context().close();

      const again = await signIn(browser, "/branches?sort=name");
      const code = again.getByLabel(L("Two-factor code"));
      await expect(code).toBeVisible();
      await code.fill(codeOf(secret, confirmedAt + 30_000));
      await again.getByRole("button", { name: L("Sign in") }).click();
      await expect(again).toHaveURL(/\/branches\?sort=name$/);
      await inLanguage(again);
      await again.context().close();
    });

    test("sign in as the demo administrator through the form", async ({ page }) => {
      await page.goto("/login");
      await inLanguage(page);
      await page.getByLabel(L("Email"), { exact: true }).fill("admin@example.com");
      await page.getByLabel(L("Password")).fill("admin-demo-pass");
      await page.getByRole("button", { name: L("Sign in") }).click();
      await expect(page).toHaveURL(/\/subscribers/);
      await inLanguage(page);
    });
  });
}
