import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Locator, type Page } from "@playwright/test";

export const USERS = {
  admin: { email: "admin@example.com", password: "admin-demo-pass", name: "Ada Admin" },
  staff: { email: "staff@example.com", password: "staff-demo-pass", name: "Sam Staff" },
} as const;
export type RoleName = keyof typeof USERS;

/** Signs in through next-auth's credentials endpoint (not the form): the cookie lands in the page's context. */
export async function signInByApi(page: Page, role: RoleName) {
  await signInWith(page, USERS[role]);
}

/** The same, as any user (one a test made itself, say). */
export async function signInWith(page: Page, user: { email: string; password: string }) {
  const request = page.context().request;
  const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const response = await request.post("/api/auth/callback/credentials", {
    form: { email: user.email, password: user.password, csrfToken, json: "true" },
    maxRedirects: 0,
  });
  expect(response.status(), "sign-in by API").toBeLessThan(400);
  const cookies = await page.context().cookies();
  expect(cookies.some((c) => c.name.endsWith("next-auth.session-token"))).toBe(true);
}

export const test = base.extend<{ asAdmin: Page; asStaff: Page }>({
  asAdmin: async ({ page }, use) => {
    await signInByApi(page, "admin");
    await use(page);
  },
  asStaff: async ({ page }, use) => {
    await signInByApi(page, "staff");
    await use(page);
  },
});

export { expect };

/**
 * A list's toolbar (components/list/filter-bar.tsx), by role: its search box, the Filters panel
 * (a <details>: its <summary> has no role of its own), and the chips of the filters in force.
 */
export function listToolbar(page: Page, searchName: string) {
  const form = page.getByRole("search", { name: "Filters" });
  const chips = page.getByRole("list", { name: "Filters in force" });
  return {
    search: form.getByRole("searchbox", { name: searchName, exact: true }),
    /** Opens the Filters panel and returns it. */
    async openFilters() {
      const panel = form.locator("details");
      if (!(await panel.evaluate((d: HTMLDetailsElement) => d.open))) await form.locator("summary").click();
      await expect(panel).toHaveJSProperty("open", true);
      return panel;
    },
    chips,
    chip: (label: string | RegExp) => chips.getByRole("link", { name: typeof label === "string" ? `Remove the filter ${label}` : label }),
    clear: chips.getByRole("link", { name: "Clear filters", exact: true }),
  };
}

/** The page's query as an object, to compare whatever the parameters' order. */
export const queryOf = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/**
 * Waits until React has hydrated `locator`'s element, and returns it. A client button's handler
 * exists only from then: after a full-page load (a plain form's GET, say) the server's markup is
 * visible and enabled before its script runs, and a click in between does nothing.
 */
export async function hydrated(locator: Locator) {
  await expect
    .poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps$"))), { message: "hydrated" })
    .toBe(true);
  return locator;
}

/** A toast (sonner's list in its "Notifications" region) saying `message`. */
export const toast = (page: Page, message: string) =>
  page.getByRole("region", { name: /^Notifications/ }).getByRole("listitem").filter({ hasText: message });

/** Opens a row's Actions menu (a <details>: its <summary> has no role of its own) on /users. */
export const openRowMenu = (row: Locator) => row.locator("summary", { hasText: "Actions" }).click();

/**
 * Waits until the page's time-driven animations and transitions have been over for a moment, so
 * axe judges colours as they settle: a toast mounted just after a check began still fades in
 * (a spinner's endless animation, and one driven by a table's scroll, not by time, are left out).
 */
export async function animationsSettled(page: Page, quietMs = 250) {
  const token = Math.random();
  await page.waitForFunction(
    ({ token, quietMs }) => {
      const running = document
        .getAnimations()
        .some((a) => a.timeline === document.timeline && a.effect?.getComputedTiming().iterations !== Infinity && a.playState === "running");
      const state = window as unknown as { __settled?: { token: number; since: number | null } };
      if (state.__settled?.token !== token) state.__settled = { token, since: null };
      if (running) state.__settled.since = null;
      else state.__settled.since ??= performance.now();
      return state.__settled.since !== null && performance.now() - state.__settled.since >= quietMs;
    },
    { token, quietMs },
    { timeout: 5_000 },
  );
}

/**
 * The landmarks that share a role and a name, by axe's `landmark-unique` (a best practice it rates
 * moderate, so outside axeViolations): a screen reader lists landmarks by name.
 */
export async function repeatedLandmarks(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withRules(["landmark-unique"]).options({ resultTypes: ["violations"] }).setLegacyMode().analyze();
  return violations.flatMap((v) => v.nodes.map((n) => n.target.join(" ")));
}

/**
 * What axe finds serious or critical on the page as it is now, one readable paragraph per rule:
 * every spec's checks, WCAG 2.0 to 2.2 A and AA and the experimental rule that a control's name
 * holds its visible label (2.5.3, level A), once animations have settled (a toast fading in blends
 * its colours with the page's).
 */
export async function axeViolations(page: Page, what = ""): Promise<string[]> {
  await animationsSettled(page);
  // One scan in the page, violations alone in full: the default mode's merge in a blank page (for
  // frames of other origins, which the CSP does not let a page load) and its details of every
  // passing node cost more than the rules (docs/decisions/0052-axe-scans.md).
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .options({ rules: { "label-content-name-mismatch": { enabled: true } }, resultTypes: ["violations"] })
    .setLegacyMode()
    .analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${what ? `${what} ` : ""}(${new URL(page.url()).pathname}): ${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes.map((n) => `    at ${n.target.join(" ")}\n      ${(n.failureSummary ?? "").replace(/\n\s*/g, "; ")}`).join("\n"),
    );
}
