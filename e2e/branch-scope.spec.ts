import { expect, openRowMenu, test, toast } from "./fixtures";

// Branch scope in the browser: an admin limits a new staff member to one branch on /users (the
// dialog's search and ticks), and that staff member, signed in in a browser of their own, sees
// that one branch everywhere: named in the header, the only one on /branches and in the list's rows.

const SCOPED = { name: "Bea Branchbound", email: "bea.branchbound@example.com", password: "harbour lantern quiet 73" };

test("an admin scopes a staff member to one branch, who then sees that branch only", async ({ asAdmin: admin, browser }) => {
  const made = await admin.request.post("/api/v1/users", { data: { ...SCOPED, role: "staff" } });
  expect(made.status(), await made.text()).toBe(201);
  const branches = (await (await admin.request.get("/api/v1/branches?sort=name")).json()) as { data: { id: number; name: string }[] };
  const home = branches.data[1]!;

  await admin.goto(`/users?email=${encodeURIComponent(SCOPED.email)}`);
  const row = admin.getByRole("row", { name: new RegExp(SCOPED.name) });
  await expect(row).toContainText("Every branch");
  await openRowMenu(row);
  await row.getByRole("button", { name: `Branches of ${SCOPED.name}` }).click();
  const dialog = admin.getByRole("dialog", { name: `Branches of ${SCOPED.name}` });
  await dialog.getByLabel("Only the branches ticked below").check();
  await dialog.getByLabel("Search branches").fill(home.name);
  await expect(dialog.getByRole("checkbox")).toHaveCount(1);
  await dialog.getByRole("checkbox", { name: home.name }).check();
  await admin.screenshot({ path: "test-results/screens/users-branches-dialog.png" });
  await dialog.getByRole("button", { name: "Save branches" }).click();
  await expect(toast(admin, `${SCOPED.name} sees 1 branch from their next request on.`)).toBeVisible();
  await expect(row).toContainText(home.name);
  await admin.screenshot({ path: "test-results/screens/users-with-branches.png", fullPage: true });

  // Bea, in a browser of her own.
  const context = await browser.newContext();
  const bea = await context.newPage();
  await bea.goto("/login");
  await bea.getByLabel("Email").fill(SCOPED.email);
  await bea.getByLabel("Password").fill(SCOPED.password);
  await bea.getByRole("button", { name: "Sign in" }).click();
  await expect(bea).toHaveURL(/\/subscribers$/);
  await expect(bea.getByTestId("user-branches")).toHaveText(`Your branches: ${home.name}`);
  await expect(bea.getByTestId("list-scope")).toHaveText(`Only subscribers of your branches are listed: ${home.name}.`);
  const rows = bea.getByRole("table").getByRole("row");
  await expect(rows.nth(1)).toBeVisible();
  const branchCells = await bea.getByRole("table").locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ""));
  expect(branchCells.length).toBeGreaterThan(0);
  for (const text of branchCells) expect(text).toContain(home.name);
  await bea.screenshot({ path: "test-results/screens/scoped-subscribers.png", fullPage: true });
  // Her one branch is chosen for her on a new subscriber, and the field says it is required.
  await bea.goto("/subscribers/new");
  await expect(bea.getByRole("combobox", { name: "Branch" })).toHaveValue(home.name);
  await expect(bea.getByText("Required: one of your branches.")).toBeVisible();
  await expect(bea.getByText("Optional.", { exact: true })).toHaveCount(1); // the travel date's only
  await bea.screenshot({ path: "test-results/screens/scoped-new-subscriber.png", fullPage: true });
  await bea.goto("/branches");
  await expect(bea.getByRole("table").locator("tbody tr")).toHaveCount(1);
  await expect(bea.getByRole("table")).toContainText(home.name);
  // Another branch's id is not found, as an unknown one.
  const other = branches.data.find((b) => b.id !== home.id)!;
  expect((await bea.request.get(`/api/v1/branches/${other.id}`)).status()).toBe(404);
  // Another branch's subscriber answers as an unknown one does, and the page says why it may be so.
  const outside = (await (await admin.request.get(`/api/v1/subscribers?branch_name=${encodeURIComponent(other.name)}`)).json()) as { data: { id: number }[] };
  for (const id of [outside.data[0]!.id, 999_999_999]) {
    expect((await bea.goto(`/subscribers/${id}`))?.status()).toBe(404);
    await expect(bea.getByRole("heading", { name: "This subscriber is not available" })).toBeVisible();
    await expect(bea.getByText("a branch you do not have access to")).toBeVisible();
  }
  await context.close();
});

test("an admin gives a new staff member their branches on /users/new", async ({ asAdmin: admin }) => {
  const branches = (await (await admin.request.get("/api/v1/branches?sort=name")).json()) as { data: { id: number; name: string }[] };
  const home = branches.data[2]!;
  const user = { name: "Nell Newbranch", email: "nell.newbranch@example.com" };

  await admin.goto("/users/new");
  await admin.getByLabel("Name").fill(user.name);
  await admin.getByLabel("Email").fill(user.email);
  await admin.getByLabel("Only the branches ticked below").check();
  await admin.getByLabel("Choose their first password myself").check();
  await admin.getByLabel("Initial password").fill("harbour lantern quiet 91");
  // None ticked: the form says so rather than sending an empty scope.
  await admin.getByRole("button", { name: "Create user" }).click();
  await expect(admin.getByRole("alert").filter({ hasText: "Tick at least one branch, or choose every branch." })).toBeVisible();
  await admin.getByLabel("Search branches").fill(home.name);
  await expect(admin.getByRole("list", { name: "Branches" }).getByRole("checkbox")).toHaveCount(1);
  await admin.getByRole("checkbox", { name: home.name }).check();
  await admin.screenshot({ path: "test-results/screens/users-new-branches.png", fullPage: true });
  await admin.getByRole("button", { name: "Create user" }).click();
  await expect(admin).toHaveURL(/\/users$/);

  await admin.goto(`/users?email=${encodeURIComponent(user.email)}`);
  await expect(admin.getByRole("row", { name: new RegExp(user.name) })).toContainText(home.name);
  // An administrator has every branch: the choice is not offered.
  await admin.goto("/users/new");
  await admin.getByLabel("Role").selectOption("admin");
  await expect(admin.getByText("Which branches they see")).toHaveCount(0);
});
