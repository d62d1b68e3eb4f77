import fs from "node:fs";
import ExcelJS from "exceljs";
import { expect, test } from "./fixtures";

// Importing a sheet in the browser: upload, map a column the console did not
// recognise, preview (counts, bad cells marked), start, watch it finish, download the rejected
// rows, and find the imported subscribers by their sheet. Screenshots of every step.

const SCREENS = "test-results/screens";

test("uploads a sheet, maps it, previews, imports, and hands back the rejected rows", async ({ asStaff: page }) => {
  const stamp = `${Date.now()}`.slice(-7);
  const branches = (await (await page.request.get("/api/v1/branches")).json()) as { data: { name: string }[] };
  const branch = branches.data[0]!.name;
  const sheet = `E2E import ${stamp}`;
  const csv = [
    "First Name;Surname;E-mail;Handy;Branch;Country",
    `Ines;Import${stamp};ines.${stamp}@example.com;07400 ${stamp.slice(-6)};${branch};GB`,
    `Jon;Import${stamp};jon.${stamp}@example.com;+33 6 12 ${stamp.slice(-4, -2)} ${stamp.slice(-2)} 01;;France`,
    `Kai;Import${stamp};INES.${stamp}@example.com;07400 ${String(Number(stamp.slice(-6)) + 1).padStart(6, "0")};;GB`,
    `Lea;Import${stamp};not-an-email;4.47E+11;No such branch;GB`,
  ].join("\r\n");

  await page.goto("/subscribers");
  await page.getByRole("link", { name: "Import", exact: true }).click();
  await expect(page).toHaveURL(/\/subscribers\/import$/);
  await expect(page.getByRole("link", { name: "Download template" })).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/import-1-upload.png`, fullPage: true });

  await page.getByLabel("File").setInputFiles({ name: `${sheet}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(/\/subscribers\/import\/[\w-]{22}$/);
  // "Handy" is not a name the console knows: the mobile is missing until it is mapped.
  await expect(page.getByRole("alert").filter({ hasText: "No column gives Mobile" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Start import" })).toBeDisabled();
  await page.screenshot({ path: `${SCREENS}/import-2-mapping.png`, fullPage: true });

  await page.getByLabel("Field for column Handy").selectOption("mobile");
  await page.getByRole("button", { name: "Update preview" }).click();
  const counts = page.locator("dl");
  await expect(counts.getByText("Will be imported", { exact: true })).toBeVisible();
  await expect(counts).toContainText("Rows4");
  await expect(counts).toContainText("Will be imported3");
  await expect(counts).toContainText("Marked duplicate1");
  await expect(counts).toContainText("Rejected1");
  await expect(page.getByRole("cell", { name: /No branch is called "No such branch"/ })).toBeVisible();
  await expect(page.getByRole("cell", { name: /spreadsheet shortened/ })).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/import-3-preview.png`, fullPage: true });

  await page.getByRole("button", { name: "Start import" }).click();
  // The state is the heading's badge: by role and name, not by text (Next's route announcer
  // repeats the heading, so a bare "Completed" matched twice).
  await expect(page.getByRole("heading", { level: 1, name: `Import: ${sheet}.csv Completed` })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("dl")).toContainText("Imported3");
  await page.screenshot({ path: `${SCREENS}/import-4-done.png`, fullPage: true });

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download rejected rows" }).click()]);
  const rejected = fs.readFileSync((await download.path())!, "utf8");
  expect(rejected).toContain("First Name,Surname,E-mail,Handy,Branch,Country,error");
  expect(rejected).toMatch(/Lea,Import\d+,not-an-email,4\.47E\+11,No such branch,GB,.*E-mail: This is not an email address/);

  await page.getByRole("link", { name: /See the subscribers of sheet/ }).click();
  await expect(page).toHaveURL(/\/subscribers\?sheet=/);
  const rows = page.getByRole("table", { name: "Subscribers" }).locator("tbody tr");
  await expect(rows).toHaveCount(3);
  const kai = (await (await page.request.get(`/api/v1/subscribers?first_name=Kai&last_name=Import${stamp}`)).json()) as { data: { is_duplicate: boolean; sheet: { name: string } }[] };
  expect(kai.data).toMatchObject([{ is_duplicate: true, sheet: { name: sheet } }]); // the duplicate of Ines (same email)

  // The import is in the user's recent imports; another user's view of it is the 404 page.
  await page.goto("/subscribers/import");
  await expect(page.getByRole("link", { name: `${sheet}.csv` })).toBeVisible();
});

test("a workbook's worksheet is chosen on the preview: kept when the mapping changes, the user's choices kept on another", async ({ asStaff: page }) => {
  const stamp = `${Date.now()}`.slice(-6);
  const branches = (await (await page.request.get("/api/v1/branches")).json()) as { data: { name: string }[] };
  const book = new ExcelJS.Workbook();
  book.addWorksheet("Autumn").addRows([
    ["Given name", "Surname", "E-mail", "Phone", "Office"],
    ["Mo", `Sheet${stamp}`, `mo.${stamp}@example.com`, `+447911212${stamp.slice(-3)}`, branches.data[0]!.name],
    ["Nia", `Sheet${stamp}`, `nia.${stamp}@example.com`, `+447911213${stamp.slice(-3)}`, "No such branch"],
  ]);
  book.addWorksheet("Winter").addRows([
    ["Mobile", "Given name", "Surname", "E-mail", "Office"],
    [`+447911214${stamp.slice(-3)}`, "Oz", `Sheet${stamp}`, `oz.${stamp}@example.com`, "No such branch"],
    [`+447911215${stamp.slice(-3)}`, "Pam", `Sheet${stamp}`, `pam.${stamp}@example.com`, ""],
    [`+447911216${stamp.slice(-3)}`, "Quin", `Sheet${stamp}`, "not-an-email", ""],
  ]);
  await page.goto("/subscribers/import");
  await page.getByLabel("File").setInputFiles({ name: `Seasons ${stamp}.xlsx`, mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: Buffer.from(await book.xlsx.writeBuffer()) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(/\/subscribers\/import\/[\w-]{22}$/);
  const worksheet = page.getByLabel("Worksheet");
  const counts = page.locator("dl");
  await expect(worksheet).toHaveValue("Autumn");
  await expect(counts).toContainText("Will be imported1");

  // Office is not a branch column here: ignored, and the preview is updated on the same worksheet.
  await page.getByLabel("Field for column Office").selectOption("");
  await page.getByRole("button", { name: "Update preview" }).click();
  await expect(counts).toContainText("Will be imported2");
  await expect(worksheet).toHaveValue("Autumn");
  await expect(page.getByLabel("Field for column Office")).toHaveValue("");

  // Another worksheet: its own header, mapped again, Office still ignored; its rows counted.
  await worksheet.selectOption("Winter");
  await page.getByRole("button", { name: "Update preview" }).click();
  await expect(counts).toContainText("Rows3");
  await expect(counts).toContainText("Will be imported2");
  await expect(counts).toContainText("Rejected1");
  await expect(worksheet).toHaveValue("Winter");
  await expect(page.getByLabel("Field for column Mobile")).toHaveValue("mobile");
  await expect(page.getByLabel("Field for column Office")).toHaveValue("");
  await expect(page.getByRole("button", { name: "Start import" })).toBeEnabled();
  await page.screenshot({ path: `${SCREENS}/import-worksheet.png`, fullPage: true });
});

test("a file that is not a sheet is refused with its reason, on the upload form", async ({ asStaff: page }) => {
  await page.goto("/subscribers/import");
  await page.getByLabel("File").setInputFiles({ name: "photo.csv", mimeType: "text/csv", buffer: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3, 4]) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "old Excel file (.xls)" })).toBeVisible();
  await expect(page).toHaveURL(/\/subscribers\/import$/);
});

test("the preview at phone width", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const { signInByApi } = await import("./fixtures");
  await signInByApi(page, "staff");
  await page.goto("/subscribers/import");
  const stamp = `${Date.now()}`.slice(-6);
  await page.getByLabel("File").setInputFiles({ name: "phone.csv", mimeType: "text/csv", buffer: Buffer.from(`first_name,last_name,email,mobile\nPia,Phone,pia.${stamp}@example.com,+447400${stamp}\n`) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("button", { name: "Start import" })).toBeEnabled();
  await page.screenshot({ path: `${SCREENS}/import-phone.png`, fullPage: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await context.close();
});
