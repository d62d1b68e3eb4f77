import { expect, listToolbar, test, toast } from "./fixtures";

test.describe("branches", () => {
  test("a page of the build before an upgrade reloads when its action is gone, and saves once reloaded", async ({ asAdmin: page }) => {
    const name = `Skew ${Date.now()}`;
    await page.goto("/branches/new");
    await page.getByLabel("Name").fill(name);
    // The new build answers the old page's action as Next does for an action it no longer knows.
    let refused = 0;
    await page.route("**/branches/new", (route) => {
      if (route.request().method() !== "POST" || !route.request().headers()["next-action"]) return route.continue();
      refused++;
      return route.fulfill({ status: 409, headers: { "x-nextjs-action-not-found": "1", "content-type": "text/plain" }, body: "Server action not found." });
    });
    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Create branch" }).click();
    await reloaded;
    expect(refused).toBe(1);
    await page.unroute("**/branches/new");
    // Reloaded onto the build that serves it: no "check your connection", and the form works.
    await expect(page.getByLabel("Name")).toHaveValue("");
    await expect(page.getByText("Check your connection")).toHaveCount(0);
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create branch" }).click();
    await expect(page).toHaveURL(/\/branches(\?|$)/);
    const stored = (await (await page.request.get(`/api/v1/branches?name=${encodeURIComponent(name)}`)).json()) as { data: { name: string }[] };
    expect(stored.data.filter((b) => b.name === name)).toHaveLength(1);
  });

  test("admin creates, edits and deletes a branch through the UI", async ({ asAdmin: page }) => {
    const name = `Harbour ${Date.now()}`;
    await page.goto("/branches");
    await page.getByRole("link", { name: "New branch" }).first().click();
    await expect(page).toHaveURL(/\/branches\/new$/);
    await expect(page.getByRole("heading", { name: "New branch" })).toBeVisible();

    // Validation first: empty, then a name that exists in another case.
    await page.getByRole("button", { name: "Create branch" }).click();
    const nameField = page.getByRole("textbox", { name: "Name" });
    await expect(nameField).toHaveAccessibleDescription(/ Enter a name\.$/);
    const existing = (await (await page.request.get("/api/v1/branches?sort=name")).json()).data[0].name as string;
    await page.getByLabel("Name").fill(existing.toUpperCase());
    await page.getByRole("button", { name: "Create branch" }).click();
    await expect(nameField).toHaveAccessibleDescription(/ A branch with this name already exists\.$/);
    await page.screenshot({ path: "test-results/screens/branch-form-error.png" });

    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create branch" }).click();
    await expect(page).toHaveURL(/\/branches$/);
    await expect(toast(page, `Branch “${name}” created.`)).toBeVisible();
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row).toBeVisible();

    await row.getByRole("link", { name: `Edit ${name}` }).click();
    await expect(page).toHaveURL(/\/branches\/\d+\/edit$/);
    await expect(page.getByLabel("Name")).toHaveValue(name);
    await page.getByLabel("Name").fill(`${name} East`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(toast(page, `Branch “${name} East” saved.`)).toBeVisible();

    const renamed = page.getByRole("row", { name: new RegExp(`${name} East`) });
    await renamed.getByRole("button", { name: `Delete ${name} East` }).click();
    const dialog = page.getByRole("dialog", { name: `Delete “${name} East”?` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("No subscriber belongs to this branch.");
    await page.screenshot({ path: "test-results/screens/branch-delete-dialog.png" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await renamed.getByRole("button", { name: `Delete ${name} East` }).click();
    await dialog.getByRole("button", { name: "Delete branch" }).click();
    await expect(toast(page, `Branch “${name} East” deleted.`)).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
  });

  test("the delete dialog says how many subscribers lose their branch", async ({ asAdmin: page }) => {
    await page.goto("/branches?sort=name");
    await page.getByRole("button", { name: /^Delete / }).first().click();
    await expect(page.getByRole("dialog")).toContainText(/\d+ subscribers? will lose their branch/);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();
  });

  test("staff see no controls and get a 403 page on the admin pages", async ({ asStaff: page }) => {
    await page.goto("/branches");
    await expect(page.getByRole("table")).toBeVisible();
    await expect(page.getByRole("link", { name: "New branch" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^Edit / })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Delete / })).toHaveCount(0);
    await page.screenshot({ path: "test-results/screens/branches-staff.png", fullPage: true });

    for (const path of ["/branches/new", "/branches/1/edit"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
      await expect(page.getByLabel("Name")).toHaveCount(0);
    }
  });

  test("filters and paging live in the URL", async ({ asStaff: page }) => {
    const toolbar = listToolbar(page, "Name");
    await page.goto("/branches");
    await expect(page.getByRole("status").filter({ hasText: /^Showing 1–10 of \d+ branches$/ })).toBeVisible();
    await page.screenshot({ path: "test-results/screens/branches.png", fullPage: true });

    await toolbar.search.fill("a");
    await expect(page).toHaveURL(/\/branches\?name=a$/);
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await pager.getByRole("link", { name: "2", exact: true }).click();
    await expect(page).toHaveURL(/\/branches\?name=a&page=2$/);
    await expect(pager.getByRole("link", { name: "2", exact: true })).toHaveAttribute("aria-current", "page");

    // Sorting keeps the filter and returns to page 1.
    await page.getByRole("link", { name: /^Name/ }).click();
    await expect(page).toHaveURL(/\/branches\?name=a&sort=name$/);
    await expect(page.getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "ascending");

    // Back walks the history; reload keeps the state.
    await page.goBack();
    await expect(page).toHaveURL(/page=2/);
    await page.reload();
    await expect(toolbar.search).toHaveValue("a");

    await toolbar.clear.click();
    await expect(page).toHaveURL(/\/branches$/);
    await expect(toolbar.search).toHaveValue("");
  });

  test("an invalid or past-the-end page explains itself", async ({ asStaff: page }) => {
    for (const bad of ["0", "-3", "abc", "2.5", "99999999999999"]) {
      const response = await page.goto(`/branches?page=${bad}`);
      expect(response?.status(), bad).toBe(400); // the API's status, with the page's explanation
      await expect(page.getByRole("alert").filter({ hasText: "values the list cannot use" })).toContainText("page");
    }
    await page.getByRole("link", { name: "Drop those values" }).click();
    await expect(page).toHaveURL(/\/branches$/);

    await page.goto("/branches?page=500");
    await expect(page.getByRole("heading", { name: "There is no page 500" })).toBeVisible();
    await page.getByRole("link", { name: /Last page/ }).click();
    await expect(page).toHaveURL(/page=\d+$/);
    await expect(page.getByRole("table")).toBeVisible();
  });

  test("the pager shows 7 numbers on a 20-page result and moves its window", async ({ asAdmin: page }) => {
    const prefix = `Pager ${Date.now()}`;
    // Ten requests at a time: the pager is under test here, not 200 creations one after another.
    for (let from = 1; from <= 200; from += 10) {
      const created = Array.from({ length: 10 }, (_, k) => page.request.post("/api/v1/branches", { data: { name: `${prefix} ${from + k}` } }));
      expect((await Promise.all(created)).map((r) => r.status())).toEqual(Array(10).fill(201));
    }
    await page.goto(`/branches?name=${encodeURIComponent(prefix)}`);
    const pager = page.getByRole("navigation", { name: "Pagination" });
    const numbers = pager.getByRole("link", { name: /^\d+$/ });
    // The first and the last page are always among the 7: the window moves between them.
    await expect(numbers).toHaveText(["1", "2", "3", "4", "5", "6", "20"]);
    await expect(pager.getByRole("link", { name: "Previous" })).toHaveCount(0);
    await expect(pager.locator("[aria-disabled=true]", { hasText: "Previous" })).toHaveCount(1);

    await pager.getByRole("link", { name: "6", exact: true }).click();
    await expect(page).toHaveURL(/page=6/);
    await expect(numbers).toHaveText(["1", "4", "5", "6", "7", "8", "20"]);
    await pager.getByRole("link", { name: "7", exact: true }).click();
    await expect(page).toHaveURL(/page=7/);
    await expect(numbers).toHaveText(["1", "5", "6", "7", "8", "9", "20"]);
    await pager.getByRole("link", { name: "Next" }).click();
    await expect(numbers).toHaveText(["1", "6", "7", "8", "9", "10", "20"]);
    await expect(page).toHaveURL(new RegExp(`name=${encodeURIComponent(prefix).replace(/%20/g, "(\\+|%20)")}.*page=8`));
    await page.screenshot({ path: "test-results/screens/branches-pager.png", fullPage: true });

    await page.goto(`/branches?name=${encodeURIComponent(prefix)}&page=20`);
    await expect(numbers).toHaveText(["1", "15", "16", "17", "18", "19", "20"]);
    await expect(pager.getByRole("link", { name: "Next" })).toHaveCount(0);
    await expect(pager.locator("[aria-disabled=true]", { hasText: "Next" })).toHaveCount(1);
  });
});
