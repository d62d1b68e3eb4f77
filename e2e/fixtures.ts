import { test as base, expect, type Page } from "@playwright/test";

export const USERS = {
  admin: { email: "admin@example.com", password: "admin-demo-pass", name: "Ada Admin" },
  staff: { email: "staff@example.com", password: "staff-demo-pass", name: "Sam Staff" },
} as const;
export type RoleName = keyof typeof USERS;

/** Signs in through next-auth's credentials endpoint (not the form): the cookie lands in the page's context. */
export async function signInByApi(page: Page, role: RoleName) {
  const request = page.context().request;
  const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const response = await request.post("/api/auth/callback/credentials", {
    form: { email: USERS[role].email, password: USERS[role].password, csrfToken, json: "true" },
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
