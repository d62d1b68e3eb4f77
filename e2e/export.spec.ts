import fs from "node:fs";
import { parse } from "csv-parse/sync";
import { axeViolations, expect, signInByApi, test, toast } from "./fixtures";
import { convertWithLibreOffice } from "../tests/helpers/libreoffice";
import { readXlsx } from "../tests/helpers/xlsx-read";

// The export panel of /subscribers: request with the current filters, watch the progress,
// download, open the file and check its rows; the file is its owner's only.

test.describe("subscriber export", () => {
  test("staff requests an export of the filtered list, sees it progress, downloads it", async ({ asStaff: page, browser }) => {
    await page.goto("/subscribers?is_mandatory=true");
    const panel = page.getByRole("region", { name: /Export file/ });
    const summary = panel.getByText(/subscribers? match(es)? the current filters and will be exported/);
    await expect(summary).toBeVisible();
    const expected = Number((await summary.textContent())!.replace(/[^\d].*$/s, "").replace(/,/g, ""));
    expect(expected).toBeGreaterThan(0);
    await page.screenshot({ path: "test-results/screens/export-panel-idle.png" });

    const requestButton = panel.getByRole("button", { name: "Request export" });
    await requestButton.click();
    await expect(toast(page, "Export requested. The file is being prepared.")).toBeVisible();
    // In queue: a progress bar, and no second request.
    await expect(panel.getByRole("progressbar", { name: "Export progress" })).toBeVisible();
    await expect(requestButton).toBeDisabled();
    await expect(panel.getByText("An export is already being prepared.", { exact: false })).toBeVisible();
    // A second request while in_queue is refused (202 only if the first one finished meanwhile:
    // the worker is fast on 2,500 rows; same filters, so the file is the same either way).
    const conflict = await page.request.post("/api/v1/subscribers/export", { data: { is_mandatory: "true" } });
    expect([409, 202]).toContain(conflict.status());
    await panel.screenshot({ path: "test-results/screens/export-panel-in-queue.png" });

    // Completed without reloading the page: the panel polls the status.
    await expect(panel.getByRole("heading", { name: "Export file Completed" })).toBeVisible({ timeout: 30_000 });
    // The toast carries the Download, and stays until dismissed.
    await expect(toast(page, "Your export file is ready.").getByRole("button", { name: "Download" })).toBeVisible();
    await expect(requestButton).toBeEnabled();
    if (conflict.status() === 202) {
      await expect
        .poll(async () => (await (await page.request.get("/api/v1/subscribers/export")).json()).downloadable_file_status)
        .toBe("completed");
      await page.reload();
    }
    await page.screenshot({ path: "test-results/screens/export-panel-completed.png", fullPage: false });

    const [download] = await Promise.all([page.waitForEvent("download"), panel.getByRole("link", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^subscribers-\d{8}-\d{4}\.csv$/);
    const bytes = fs.readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parse(bytes, { bom: true }) as string[][];
    expect(header).toEqual([
      "id", "first_name", "last_name", "branch_name", "country_name", "email", "mobile", "travel_date", "sheet",
      "subscription_status", "is_duplicate", "is_mandatory", "created_at",
    ]);
    expect(rows).toHaveLength(expected);
    for (const row of rows) expect(row[11]).toBe("true");
    // Mobiles are E.164 ("+44…"): a leading + is neutralised so spreadsheets show text.
    expect(rows[0]![6]).toMatch(/^'\+\d+$/);

    // Another user gets a 404 for the same file.
    const href = (await panel.getByRole("link", { name: "Download" }).getAttribute("href"))!;
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signInByApi(otherPage, "admin");
    expect((await otherPage.request.get(href)).status()).toBe(404);
    await other.close();
  });

  test("staff chooses Excel, downloads a workbook that opens with typed cells", async ({ asStaff: page }) => {
    test.setTimeout(180_000); // LibreOffice opens the file too
    await page.goto("/subscribers?is_mandatory=true");
    const panel = page.getByRole("region", { name: /Export file/ });
    const summary = panel.getByText(/subscribers? match(es)? the current filters and will be exported/);
    const expected = Number((await summary.textContent())!.replace(/[^\d].*$/s, "").replace(/,/g, ""));
    const format = panel.getByRole("group", { name: "File format" });
    await expect(format.getByRole("radio", { name: "CSV" })).toBeVisible();
    await format.getByRole("radio", { name: "Excel" }).check();
    await panel.screenshot({ path: "test-results/screens/export-panel-excel.png" });
    await panel.getByRole("button", { name: "Request export" }).click();
    await expect(toast(page, "Export requested. The file is being prepared.")).toBeVisible();
    await expect(panel.getByRole("heading", { name: "Export file Completed" })).toBeVisible({ timeout: 30_000 });
    await expect(panel.getByText(/subscribers-\d{8}-\d{4}\.xlsx/)).toBeVisible();
    // The choice stays with the latest request.
    await page.reload();
    await expect(panel.getByRole("radio", { name: "Excel" })).toBeChecked();

    const [download] = await Promise.all([page.waitForEvent("download"), panel.getByRole("link", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^subscribers-\d{8}-\d{4}\.xlsx$/);
    // Read by the tests' own reader (not the library that wrote it): a valid package, typed cells.
    const bytes = fs.readFileSync((await download.path())!);
    const { sheets } = await readXlsx(bytes);
    expect(sheets.map((s) => s.name)).toEqual(["Subscribers"]);
    const [header, ...rows] = sheets[0]!.rows;
    expect(header!.map((c) => (c as { value: string }).value)).toEqual([
      "id", "first_name", "last_name", "branch_name", "country_name", "email", "mobile", "travel_date", "sheet",
      "subscription_status", "is_duplicate", "is_mandatory", "created_at",
    ]);
    expect(rows).toHaveLength(expected);
    expect(sheets[0]!.frozenRows).toBe(1);
    expect(sheets[0]!.formulas).toBe(0);
    for (const row of rows) {
      expect(row[0]).toMatchObject({ type: "number" });
      expect(row[11]).toEqual({ type: "boolean", value: true });
      // Mobiles are text as they are, "+44…", with no apostrophe: a text cell is never a formula.
      expect(row[6]).toMatchObject({ type: "inlineStr", value: expect.stringMatching(/^\+\d+$/) });
      expect(row[12]).toMatchObject({ type: "number", format: "yyyy-mm-dd hh:mm:ss" });
    }
    // And the file opens in LibreOffice: its rows as shown, dates in their formats, mobiles as typed.
    const opened = await convertWithLibreOffice(bytes, "csv");
    const [shownHeader, ...shown] = parse(opened.get("export-Subscribers.csv")!) as string[][];
    expect(shownHeader).toEqual(header!.map((c) => (c as { value: string }).value));
    expect(shown).toHaveLength(expected);
    for (const row of shown) {
      expect(row[6]).toMatch(/^\+\d+$/);
      expect(row[11]).toBe("TRUE");
      expect(row[12]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
  });

  test("the panel says what each file holds: an older file with other filters apart, the list's sort, nothing to export", async ({ asStaff: page }) => {
    test.setTimeout(120_000);
    // A file made with other filters (and no sort: by id), as an earlier visit or a script leaves it.
    expect((await page.request.post("/api/v1/subscribers/export", { data: { is_mandatory: "true" } })).status()).toBe(202);
    await expect.poll(async () => (await (await page.request.get("/api/v1/subscribers/export")).json()).downloadable_file_status, { timeout: 30_000 }).toBe("completed");
    const older = (await (await page.request.get("/api/v1/subscribers/export")).json()) as { file: { rows: number } };

    const query = "is_mandatory=true&subscription_status=active&sort=last_name";
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/subscribers?${query}`);
    const panel = page.getByRole("region", { name: /Export file/ });
    await expect(panel).toContainText("Rows in the list's order: Last name, ascending.");
    // The older file is offered apart, described by its own filters, sort and rows; no Download beside the current count.
    const olderFile = panel.getByRole("group", { name: "Older file" });
    await expect(olderFile).toContainText(`${older.file.rows.toLocaleString("en-GB")} rows with Mandatory: Yes, sorted by ID, ascending`);
    await expect(olderFile.getByRole("link", { name: "Download older file" })).toBeVisible();
    await expect(panel.getByRole("link", { name: /^Download \(/ })).toHaveCount(0);
    await panel.screenshot({ path: "test-results/screens/export-panel-older-desktop.png" });
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.screenshot({ path: "test-results/screens/export-panel-older-phone.png" });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The current filters' export: once made, its Download says its rows, and its rows follow the list's sort.
    await panel.getByRole("button", { name: "Request export" }).click();
    // The older file stays apart until the new one replaces it (the panel polls).
    await expect(panel).toContainText("The current filters' file: ", { timeout: 30_000 });
    await expect(panel.getByRole("heading", { name: "Export file Completed" })).toBeVisible();
    const status = (await (await page.request.get("/api/v1/subscribers/export")).json()) as { file: { rows: number; sort: string } };
    expect(status.file.sort).toBe("last_name");
    const rows = status.file.rows.toLocaleString("en-GB");
    await expect(panel).toContainText(`${rows} rows with Status: Active, Mandatory: Yes, sorted by Last name, ascending`);
    await expect(olderFile).toHaveCount(0);
    await panel.screenshot({ path: "test-results/screens/export-panel-current-desktop.png" });
    const [download] = await Promise.all([page.waitForEvent("download"), panel.getByRole("link", { name: `Download (${rows} rows)` }).click()]);
    const [, ...lines] = parse(fs.readFileSync((await download.path())!), { bom: true }) as string[][];
    expect(lines).toHaveLength(status.file.rows);
    const listed = (await (await page.request.get(`/api/v1/subscribers?${query}`)).json()) as { data: { id: number }[] };
    expect(lines.slice(0, listed.data.length).map((r) => Number(r[0]))).toEqual(listed.data.map((r) => r.id));
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.screenshot({ path: "test-results/screens/export-panel-current-phone.png" });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Nothing matches: said before anything runs, and nothing can be requested.
    await page.goto("/subscribers?email=nobody-matches-this-export");
    await expect(panel).toContainText("No subscriber matches the current filters.");
    await expect(panel).toContainText("there is nothing to export");
    await expect(panel.getByRole("button", { name: "Request export" })).toBeDisabled();
  });
});
