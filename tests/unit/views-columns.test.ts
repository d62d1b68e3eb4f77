import { describe, expect, it } from "vitest";
import { COLUMNS } from "@/app/(console)/subscribers/subscriber-table";
import type { SessionUser } from "@/lib/auth/permissions";
import { FIT_COLUMNS } from "@/lib/subscribers/columns";
import { savedAs, shownColumns } from "@/lib/views/menu";

// A view keeps the columns as the table showed them when it was saved, and opens with them in that order.

const user = (hidden: string[] = []) => ({ preferences: { subscriberTable: { hidden } } }) as unknown as SessionUser;
const tableOrder = COLUMNS.map((c) => c.column);

describe("a view's columns", () => {
  it("are saved in the table's own order when the address names none (not the fields' catalogue order)", () => {
    expect(savedAs(user(), "subscribers", {}).columns).toEqual(tableOrder);
    expect(savedAs(user(["email", "sheet"]), "subscribers", { subscription_status: "active" }).columns).toEqual(tableOrder.filter((c) => c !== "email" && c !== "sheet"));
  });

  it("are, with no choice made, those that fit a wide screen, in the table's order", () => {
    const none = { preferences: {} } as unknown as SessionUser;
    expect(savedAs(none, "subscribers", {}).columns).toEqual(tableOrder.filter((c) => c in FIT_COLUMNS));
    expect(shownColumns(none, { columns: "sheet,id" })).toEqual(["sheet", "id"]);
  });

  it("open in the order they were saved with", () => {
    const columns = "country_name,last_name,first_name,created_at";
    expect(shownColumns(user(), { columns })).toEqual(columns.split(","));
    expect(savedAs(user(["country_name"]), "subscribers", { columns }).columns).toEqual(columns.split(","));
  });
});
