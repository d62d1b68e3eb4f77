import type { Browser, BrowserContext, Page } from "@playwright/test";
import { axeViolations, expect, signInByApi, test, type RoleName } from "./fixtures";
import { BROWSER_LOCALE, englishOnly, isNeutral, pageTexts, plainWord, type Lang } from "./languages";

// Every page in Arabic, at desktop and phone width (right to left, axe, nothing wider than the
// screen, no English left, a screenshot each), in French (no English left), and in the
// pseudo-language (PSEUDO_LOCALE, on in the e2e server: every word on the page comes from a catalogue).

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const SCREENS = "test-results/screens/languages";
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);

type Place = { name: string; path: string; as: RoleName | null };

/** Records of the test's own, made through the API (language-neutral), and the pages that show them. */
async function places(browser: Browser): Promise<{ list: Place[]; data: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInByApi(page, "admin");
  const api = page.request;
  const s = stamp();
  const post = async (path: string, data: object) => {
    const response = await api.post(path, { data });
    expect(response.status(), path).toBeLessThan(300);
    return (await response.json()) as Record<string, unknown>;
  };
  const subscriber = (email: string, i: number) =>
    post("/api/v1/subscribers", { first_name: "Lina", last_name: `Lang${s}${i}`, email, mobile: `+44 7400 ${s.slice(-5)}${i}`, subscription_status: "pending", is_mandatory: false });
  const email = `lina.${s}@example.com`;
  const first = await subscriber(email, 1);
  await subscriber(email, 2);
  const gone = await subscriber(`gone.${s}@example.com`, 3);
  expect((await api.delete(`/api/v1/subscribers/${gone.id}`)).status()).toBe(204);
  const bulk = await post("/api/v1/subscribers/bulk", { ids: [first.id], change: { subscription_status: "active" } });
  const webhook = await post("/api/v1/webhooks", { url: `https://93.184.215.14/lang/${s}`, description: "Languages", events: ["subscriber.created"] });
  expect((await api.post(`/api/v1/webhooks/${webhook.id}/test`)).status()).toBe(202);
  await post("/api/v1/views", { resource: "subscribers", name: `Lang view ${s}`, query: "subscription_status=active" });
  const user = await post("/api/v1/users", { name: `Lang Newcomer ${s}`, email: `lang.${s}@example.com`, role: "staff" });
  const upload = await api.post("/api/v1/subscribers/imports", {
    multipart: { file: { name: `Lang ${s}.csv`, mimeType: "text/csv", buffer: Buffer.from(`first_name,last_name,email,mobile\nIda,Lang${s},ida.${s}@example.com,+44 7401 ${s.slice(-6)}\n,,bad,\n`) } },
  });
  expect(upload.status()).toBe(202);
  const imported = (await upload.json()) as { id: string };
  const branches = (await (await api.get("/api/v1/branches")).json()) as { data: { id: number; name: string }[] };
  await page.goto(`/subscribers/duplicates?q=${encodeURIComponent(email)}`);
  const merge = await page.locator('a[href*="/subscribers/duplicates/merge"]').first().getAttribute("href");

  const viewNames = async () => {
    const names: string[] = [];
    for (let page = 1, length = 1; page <= length; page++) {
      const answer = (await (await api.get(`/api/v1/views?resource=subscribers&page=${page}`)).json()) as { data: { name: string }[]; pagination: { length: number } };
      names.push(...answer.data.map((v) => v.name));
      length = answer.pagination.length;
    }
    return names;
  };

  // What the pages show as data: never words of a catalogue.
  const data = [
    ...branches.data.map((b) => b.name),
    ...((await (await api.get("/api/v1/users")).json()) as { data: { name: string; email: string }[] }).data.flatMap((u) => [u.name, u.email]),
    ...((await (await api.get("/api/v1/countries")).json()) as { data: { name: string }[] }).data.map((c) => c.name),
    // Every view, this set-up's and those an earlier test made: the menu names the one the page matches.
    ...(await viewNames()),
    "Languages", `Lang ${s}`, "English", "Français", "العربية",
  ];
  await context.close();

  const admin = (name: string, path: string): Place => ({ name, path, as: "admin" });
  return {
    data,
    list: [
      { name: "sign-in", path: "/login", as: null },
      { name: "set-password", path: new URL(String(user.set_password_url)).pathname, as: null },
      { name: "set-password-unknown", path: "/set-password/not-a-real-link-0000000000000000000000000000", as: null },
      admin("subscribers", "/subscribers"),
      admin("subscribers-page-2", "/subscribers?page=2&sort=last_name"),
      admin("subscribers-nothing-found", "/subscribers?q=no-such-subscriber-anywhere"),
      admin("subscriber-new", "/subscribers/new"),
      admin("subscriber-record", `/subscribers/${first.id}`),
      admin("subscriber-edit", `/subscribers/${first.id}/edit`),
      admin("subscriber-not-found", "/subscribers/999999999"),
      admin("duplicates", `/subscribers/duplicates?q=${encodeURIComponent(email)}`),
      ...(merge ? [admin("merge", merge)] : []),
      admin("columns", "/subscribers/columns"),
      admin("import", "/subscribers/import"),
      admin("import-preview", `/subscribers/import/${imported.id}`),
      admin("bulk-confirmation", `/subscribers/bulk?select=${first.id}&change=status:active`),
      admin("bulk-change", `/subscribers/bulk/${bulk.id}`),
      admin("views", "/views?resource=subscribers"),
      admin("branches", "/branches"),
      admin("branch-new", "/branches/new"),
      admin("branch-edit", `/branches/${branches.data[0]!.id}/edit`),
      admin("users", "/users"),
      admin("user-new", "/users/new"),
      admin("account", "/account"),
      admin("two-factor", "/account/two-factor"),
      admin("activity", "/activity"),
      admin("audit", "/audit"),
      admin("trash", "/trash"),
      admin("webhooks", "/webhooks"),
      admin("webhook-deliveries", `/webhooks/${webhook.id}`),
      { name: "forbidden", path: "/branches/new", as: "staff" },
      { name: "api-docs", path: "/api/docs", as: null },
    ],
  };
}

/**
 * Opens places in one language at one size: a context per role, signed in once, and a fresh page
 * per place (what a user does in one browser); `close` ends them all.
 */
function visitor(browser: Browser, locale: string, viewport: { width: number; height: number }) {
  const contexts = new Map<RoleName | null, Promise<BrowserContext>>();
  const contextFor = (as: RoleName | null) => {
    if (!contexts.has(as))
      contexts.set(
        as,
        (async () => {
          const context = await browser.newContext({ locale, viewport });
          if (as) await signInByApi(await context.newPage(), as);
          return context;
        })(),
      );
    return contexts.get(as)!;
  };
  return {
    async open(place: Place): Promise<Page> {
      const page = await (await contextFor(place.as)).newPage();
      const response = await page.goto(place.path);
      expect(response?.status(), place.path).toBeLessThan(500);
      await expect(page.locator("h1").first()).toBeVisible();
      return page;
    },
    close: async () => Promise.all([...contexts.values()].map(async (context) => (await context).close())),
  };
}

let found: { list: Place[]; data: string[] } | null = null;
const setUp = async (browser: Browser) => (found ??= await places(browser));

test.describe("every page in another language", () => {
  test.describe.configure({ timeout: 300_000 });

  for (const [screen, viewport] of Object.entries(VIEWPORTS)) {
    test(`Arabic at ${screen} width: right to left, accessible, within the screen, no English`, async ({ browser }) => {
      const { list } = await setUp(browser);
      const english = new Set(englishOnly("ar"));
      const problems: string[] = [];
      const arabic = visitor(browser, BROWSER_LOCALE.ar, viewport);
      for (const place of list) {
        const page = await arabic.open(place);
        await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
        await expect(page.locator("html")).toHaveAttribute("lang", "ar");
        await page.screenshot({ path: `${SCREENS}/ar-${screen}-${place.name}.png`, fullPage: true });
        problems.push(...(await axeViolations(page, `ar ${screen} ${place.name}`)));
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 0) problems.push(`${place.name}: ${overflow}px wider than the screen`);
        for (const text of await pageTexts(page)) if (english.has(text)) problems.push(`${place.name}: English text ${JSON.stringify(text)}`);
        await page.close();
      }
      await arabic.close();
      expect(problems, problems.join("\n")).toEqual([]);
    });
  }

  test("French: no English left on any page", async ({ browser }) => {
    const { list } = await setUp(browser);
    const english = new Set(englishOnly("fr"));
    const problems: string[] = [];
    const french = visitor(browser, BROWSER_LOCALE.fr, VIEWPORTS.desktop);
    for (const place of list) {
      const page = await french.open(place);
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await page.screenshot({ path: `${SCREENS}/fr-${place.name}.png`, fullPage: true });
      for (const text of await pageTexts(page)) if (english.has(text)) problems.push(`${place.name}: English text ${JSON.stringify(text)}`);
      await page.close();
    }
    await french.close();
    expect(problems, problems.join("\n")).toEqual([]);
  });

  test("the pseudo-language: every word on every page comes from a catalogue", async ({ browser }) => {
    const { list, data } = await setUp(browser);
    const known = new Set(data);
    const PSEUDO = /[⟦⟧àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ]/;
    const problems: string[] = [];
    const pseudo = visitor(browser, "en-XA", VIEWPORTS.desktop);
    for (const place of list) {
      const page = await pseudo.open(place);
      await page.screenshot({ path: `${SCREENS}/pseudo-${place.name}.png`, fullPage: true });
      for (const text of await pageTexts(page)) {
        if (known.has(text) || isNeutral(text) || /^Lang|^Lina|^Ida|^lina\.|^ida\./.test(text)) continue;
        if (!PSEUDO.test(text)) problems.push(`${place.name}: ${JSON.stringify(text)}`);
      }
      // Inside a message, an unaccented word came from code, not from the catalogue ("Created" in a sentence).
      for (const text of await pageTexts(page, { attributes: false })) {
        const word = PSEUDO.test(text) ? plainWord(text, data) : null;
        if (word) problems.push(`${place.name}: ${JSON.stringify(word)} in ${JSON.stringify(text)}`);
      }
      await page.close();
    }
    await pseudo.close();
    expect([...new Set(problems)], [...new Set(problems)].join("\n")).toEqual([]);
  });
});

export type { Lang };
