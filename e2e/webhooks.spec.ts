import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { axeViolations, expect, test, toast } from "./fixtures";

// Outgoing webhooks as an administrator uses them: an endpoint added (its secret shown once), a
// test event sent and its delivery listed, the secret rotated, the endpoint deleted after a
// confirmation naming its URL; axe on the page and each dialog. Staff see no link and get the 403 page.
// The target is a receiver on 127.0.0.1 (scripts/e2e-server.mjs allows private and http targets)
// that keeps what it got, so the page's "Delivered" is checked against a body verified with the secret.

const SCREENS = "test-results/screens";
type Received = { headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => {
    received.push({ headers: req.headers, body });
    res.end("thanks");
  });
});
let port = 0;
test.beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);


test.describe("webhooks", () => {
  test("an administrator adds an endpoint, sees its secret once, tests, rotates and deletes it", async ({ asAdmin: page }) => {
    const url = `http://127.0.0.1:${port}/hook/${stamp()}`;
    await page.goto("/subscribers");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    expect(await axeViolations(page, "webhooks page")).toEqual([]);

    // The form: nothing chosen is refused with a clear message, then added.
    await page.getByRole("button", { name: "New endpoint" }).click();
    const form = page.getByRole("dialog", { name: "New endpoint" });
    await expect(form.getByRole("textbox", { name: "URL" })).toBeFocused();
    expect(await axeViolations(page, "new endpoint dialog")).toEqual([]);
    await form.getByRole("textbox", { name: "URL" }).fill(url);
    await form.getByRole("textbox", { name: "Description" }).fill("e2e receiver");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form).toContainText("Choose at least one event.");
    await form.getByRole("checkbox", { name: "subscriber.created" }).check();
    await form.getByRole("checkbox", { name: "branch.deleted" }).check();
    await form.getByRole("button", { name: "Add endpoint" }).click();

    const shown = page.getByRole("dialog", { name: "Signing secret" });
    await expect(shown).toContainText("Shown only once.");
    const secret = await shown.getByRole("textbox", { name: "Secret" }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(shown.getByRole("button", { name: "Copy secret" })).toBeVisible();
    expect(await axeViolations(page, "secret dialog")).toEqual([]);
    await shown.getByRole("button", { name: "I have copied it" }).click();
    await expect(shown).toHaveCount(0);

    // Listed, and the secret is nowhere on the page any more.
    const row = page.getByRole("row").filter({ hasText: url });
    await expect(row).toContainText("subscriber.created");
    await expect(row).toContainText("On");
    expect(await page.content()).not.toContain(secret);
    await page.screenshot({ path: `${SCREENS}/webhooks-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENS}/webhooks-phone.png`, fullPage: true });
    expect(await axeViolations(page, "webhooks page, phone")).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A test event: its delivery is on the endpoint's page.
    await row.getByRole("button", { name: `Send test event to ${url}` }).click();
    await expect(toast(page, "Test event queued")).toBeVisible();
    await row.getByRole("link", { name: url }).click();
    await expect(page.getByRole("heading", { name: url, level: 1 })).toBeVisible();
    const deliveries = page.getByRole("table", { name: "Deliveries" });
    await expect(deliveries.getByRole("row").filter({ hasText: "ping" })).toHaveCount(1);
    // Delivered within a few seconds, the receiver's 200 and first bytes listed, its signature the secret's.
    await expect(async () => {
      await page.reload();
      await expect(deliveries.getByRole("row").filter({ hasText: "ping" })).toContainText("Delivered", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(deliveries.getByRole("row").filter({ hasText: "ping" })).toContainText("200");
    await expect(deliveries.getByRole("row").filter({ hasText: "ping" })).toContainText("thanks");
    const ping = received.find((r) => r.body.includes('"ping"'))!;
    const verified = new Webhook(secret).verify(ping.body, ping.headers as Record<string, string>) as { type: string };
    expect(verified.type).toBe("ping");
    expect(await axeViolations(page, "endpoint page with a delivery")).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/webhook-deliveries.png`, fullPage: true });
    await deliveries.getByRole("button", { name: /^Resend ping / }).click();
    await expect(toast(page, "Delivery queued to be sent again.")).toBeVisible();

    // Rotation: confirmed, saying the old one stays valid; the new secret shown once.
    await page.getByRole("button", { name: `Rotate secret of ${url}` }).click();
    const confirm = page.getByRole("dialog", { name: `Make a new secret for ${url}?` });
    await expect(confirm).toContainText("The old secret stays valid for 24 hours");
    expect(await axeViolations(page, "rotate confirmation")).toEqual([]);
    await confirm.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = page.getByRole("dialog", { name: "Signing secret" });
    await expect(rotated).toContainText("The old secret stays valid for 24 hours");
    const next = await rotated.getByRole("textbox", { name: "Secret" }).inputValue();
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    await rotated.getByRole("button", { name: "I have copied it" }).click();
    await expect(page.getByText("Old secret")).toBeVisible();

    // Deleted after a confirmation naming the URL; back on the list, gone. On a phone, the URL
    // wraps inside the dialog rather than running past its edge.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: `Delete ${url}` }).click();
    const remove = page.getByRole("dialog", { name: `Delete the endpoint ${url}?` });
    await expect(remove).toContainText("cannot be undone");
    expect(await remove.evaluate((dialog) => dialog.scrollWidth <= dialog.clientWidth)).toBe(true);
    await page.screenshot({ path: `${SCREENS}/webhook-delete-phone.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await axeViolations(page, "delete confirmation")).toEqual([]);
    await remove.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(toast(page, `Endpoint ${url} deleted.`)).toBeVisible();
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(page.getByRole("row").filter({ hasText: url })).toHaveCount(0);
  });

  test("staff get no Webhooks link and the 403 page", async ({ asStaff: page }) => {
    await page.goto("/subscribers");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" })).toHaveCount(0);
    const response = await page.goto("/webhooks");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: /not allowed|403|Forbidden/i })).toBeVisible();
    expect(await axeViolations(page, "webhooks page as staff")).toEqual([]);
    expect((await page.request.get("/api/v1/webhooks")).status()).toBe(403);
  });
});
