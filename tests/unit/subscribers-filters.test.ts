import { describe, expect, it } from "vitest";
import { parseWith } from "@/lib/list/parse";
import { SUBSCRIBER_FILTER_KEYS, SUBSCRIBER_SORT_COLUMNS, subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { subscriberListSql } from "@/lib/subscribers/queries";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

const parse = (query: string) => parseWith(subscriberFiltersSchema, new URLSearchParams(query));
const filters = (query: string) => {
  const r = parse(query);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};

describe("subscriber filters", () => {
  it("defaults to page 1, newest first", () => {
    expect(parse("")).toEqual({ ok: true, value: { page: 1, sort: { column: "created_at", direction: "desc" } } });
  });

  it("reads every filter of docs/API.md", () => {
    const query =
      "id=7&first_name=ada&last_name=love&branch_name=north&country_name=king&email=example&mobile=%2B44%207400&sheet=spring" +
      "&subscription_status=active&is_duplicate=true&is_mandatory=false&travel_date_from=2027-01-01&travel_date_to=2027-01-31" +
      "&created_from=2026-01-01&created_to=2026-12-31&page=2&sort=-last_name";
    expect(filters(query)).toEqual({
      page: 2,
      sort: { column: "last_name", direction: "desc" },
      id: 7,
      first_name: "ada",
      last_name: "love",
      branch_name: "north",
      country_name: "king",
      email: "example",
      mobile: "+44 7400",
      sheet: "spring",
      subscription_status: "active",
      is_duplicate: true,
      is_mandatory: false,
      travel_date_from: "2027-01-01",
      travel_date_to: "2027-01-31",
      created_from: "2026-01-01",
      created_to: "2026-12-31",
    });
  });

  it("has a filter for every column of docs/SPEC.md", () => {
    const columns = SUBSCRIBER_SORT_COLUMNS.filter((c) => c !== "created_at" && c !== "travel_date");
    for (const c of columns) expect(SUBSCRIBER_FILTER_KEYS).toContain(c);
    for (const k of ["created_from", "created_to", "travel_date_from", "travel_date_to"]) expect(SUBSCRIBER_FILTER_KEYS).toContain(k);
  });

  it.each([
    ["subscription_status=paused", "subscription_status", "subscription_status must be one of: pending, active, expired, cancelled."],
    ["subscription_status=Active", "subscription_status", "subscription_status must be one of: pending, active, expired, cancelled."],
    ["is_duplicate=yes", "is_duplicate", "is_duplicate must be one of: true, false."],
    ["is_duplicate=1", "is_duplicate", "is_duplicate must be one of: true, false."],
    ["is_mandatory=TRUE", "is_mandatory", "is_mandatory must be one of: true, false."],
  ])("rejects the unknown option %s with a clear message", (query, field, message) => {
    const r = parse(query);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.fields[field]).toEqual([message]);
  });

  it.each([
    ["page=0", "page"],
    ["page=abc", "page"],
    ["sort=colour", "sort"],
    ["sort=-sheet_name", "sort"],
    ["id=x", "id"],
    ["travel_date_from=2027-13-01", "travel_date_from"],
    ["travel_date_from=2027-02-02&travel_date_to=2027-02-01", "travel_date_to"],
    ["created_from=2026-02-02&created_to=2026-02-01", "created_to"],
    ["email=a&email=b", "email"],
  ])("rejects %s on %s", (query, field) => {
    const r = parse(query);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.fields[field]?.length).toBeGreaterThan(0);
  });
});

describe("subscriberListSql", () => {
  const text = (query: string) => subscriberListSql(EVERY, filters(query));

  it("pages by 10 with a stable, newest-first order", () => {
    const sql = text("page=3");
    expect(sql.rows.text).toMatch(/ORDER BY s\.created_at DESC NULLS FIRST, s\.id DESC\s+LIMIT \$1 OFFSET \$2/);
    expect(sql.rows.values.slice(-2)).toEqual([10, 20]);
  });

  it("breaks ties on id in the sort's direction, empty values last when ascending", () => {
    // Names in the reader's language: the root order by default (docs/sorting-by-language.md).
    expect(text("sort=last_name").rows.sql).toContain(`ORDER BY s.last_name COLLATE "und-x-icu" ASC NULLS LAST, s.id ASC LIMIT`);
    expect(subscriberListSql(EVERY, filters("sort=-first_name"), undefined, undefined, "ar-x-icu").rows.sql).toContain(
      `ORDER BY s.first_name COLLATE "ar-x-icu" DESC NULLS FIRST, s.id DESC LIMIT`,
    );
    expect(text("sort=-travel_date").rows.sql).toContain("ORDER BY s.travel_date DESC NULLS FIRST, s.id DESC LIMIT");
    expect(text("sort=id").rows.sql).toContain("ORDER BY s.id ASC LIMIT");
  });

  it("sorts by a joined name through the rows with a name, then those without, each limited to the page", () => {
    const asc = text("sort=branch_name&page=2&is_mandatory=true").rows;
    // A branch in the trash names no row: its subscribers sort with those without a branch.
    expect(asc.sql).toContain("JOIN (SELECT * FROM branches WHERE deleted_at IS NULL) j ON j.id = s.branch_id WHERE s.is_mandatory = ?");
    expect(asc.sql).toContain(`ORDER BY lower(j.name) COLLATE "und-x-icu" ASC, s.id ASC LIMIT ?`);
    expect(asc.sql).toContain(
      "WHERE (s.branch_id IS NULL OR s.branch_id IN (SELECT id FROM (SELECT * FROM branches WHERE deleted_at IS NOT NULL) t)) AND s.is_mandatory = ? ORDER BY s.id ASC LIMIT ?",
    );
    expect(asc.sql).toContain(`ORDER BY u.sort_name COLLATE "und-x-icu" ASC NULLS LAST, u.id ASC LIMIT ? OFFSET ?`);
    expect(asc.sql).toMatch(/ORDER BY p\.sort_name COLLATE "und-x-icu" ASC NULLS LAST, s\.id ASC$/);
    expect(asc.values).toEqual([true, 20, true, 20, 10, 10]);
    const desc = text("sort=-sheet").rows.sql;
    expect(desc).toContain("JOIN sheets j ON j.id = s.sheet_id");
    expect(desc).toContain("ORDER BY u.sort_name DESC NULLS FIRST, u.id DESC LIMIT ? OFFSET ?");
    expect(text("sort=country_name").rows.sql).toContain("JOIN countries j ON j.id = s.country_id");
    expect(subscriberListSql(EVERY, filters("sort=country_name"), undefined, undefined, "ar-x-icu").rows.sql).toContain(`ORDER BY lower(j.name) COLLATE "ar-x-icu" ASC, s.id ASC LIMIT ?`);
  });

  it("finds the page by id alone, then reads and joins only its rows", () => {
    const sql = text("page=50000&sort=-email&is_mandatory=true").rows.sql;
    expect(sql).toContain("FROM (SELECT s.id FROM subscribers s WHERE s.is_mandatory = ? ORDER BY s.email DESC NULLS FIRST, s.id DESC LIMIT ? OFFSET ?) p");
    expect(sql).toContain("JOIN subscribers s ON s.id = p.id LEFT JOIN (SELECT * FROM branches WHERE deleted_at IS NULL) b");
    expect(sql).toMatch(/ORDER BY s\.email DESC NULLS FIRST, s\.id DESC$/);
  });

  it("counts without joins and with the same filters", () => {
    const sql = text("first_name=ada&is_duplicate=true");
    expect(sql.count.sql).not.toContain("JOIN");
    expect(sql.count.values).toEqual(["%ada%", true]);
    expect(sql.rows.values.slice(0, 2)).toEqual(["%ada%", true]);
  });

  it("selects only the columns shown, and the country's code that names it in the reader's language", () => {
    const select = text("").rows.sql.split("FROM")[0]!;
    const columns = select.replace("SELECT", "").split(",").map((c) => c.trim().split(/\s+AS\s+/).pop()!.replace(/^\w+\./, "").replace(/::text$/, ""));
    expect(columns).toEqual([
      "id", "first_name", "last_name", "branch_name", "country_name", "country_code", "email", "mobile",
      "travel_date", "sheet_name", "subscription_status", "is_duplicate", "is_mandatory", "created_at",
    ]);
  });
});
