import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/subscribers/route";
import type { Database } from "@/lib/db/client";
import { subscriberFiltersSchema, SUBSCRIBER_SORT_COLUMNS } from "@/lib/subscribers/filters";
import { listSubscribers, type SubscriberRecord } from "@/lib/subscribers/queries";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest } from "../helpers/http";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// A small data set whose every row is known, so each filter and sort is checked against the same
// rule computed in JavaScript (expected ids), on PGlite and on PostgreSQL.

type Fixture = {
  id: number;
  first_name: string;
  last_name: string;
  branch_name: string | null;
  country_name: string | null;
  email: string;
  mobile: string;
  travel_date: string | null;
  sheet: string | null;
  subscription_status: "pending" | "active" | "expired" | "cancelled";
  is_duplicate: boolean;
  is_mandatory: boolean;
  created_at: Date;
};

const FIRST = ["Ada", "Bob", "Cleo", "Dan", "Eve"];
const LAST = ["Lovelace", "Babbage", "Hopper", "Turing", "Curie", "Noether", "Knuth"];
const BRANCHES = ["Northgate", "Southport Central", "Eastwood"];
const COUNTRIES = [["GB", "United Kingdom"], ["FR", "France"], ["DE", "Germany"]] as const;
const SHEETS = ["Spring campaign", "Walk_ins 100%"];
const STATUSES = ["pending", "active", "expired", "cancelled"] as const;
const COUNT = 27;

function fixtureRow(i: number): Omit<Fixture, "id"> {
  const first = FIRST[i % 5]!;
  const last = LAST[i % 7]!;
  const day = i === 11 ? 10 : i; // rows 10 and 11 were created at the same instant: the id breaks the tie
  return {
    first_name: first,
    last_name: last,
    branch_name: i % 4 === 3 ? null : BRANCHES[i % 3]!,
    country_name: i % 5 === 4 ? null : COUNTRIES[i % 3]![1],
    // Row 13's email holds the two LIKE wildcards, which the search takes literally.
    email: (i === 13 ? `${first}_${last}100%${String.fromCharCode(97 + i)}@example.com` : `${first}${last}${String.fromCharCode(97 + i)}@example.com`).toLowerCase(),
    mobile: `+4474001234${String(i).padStart(2, "0")}`,
    travel_date: i % 4 === 0 ? null : `2027-01-${String(1 + i).padStart(2, "0")}`,
    sheet: i % 3 === 0 ? null : SHEETS[i % 2]!,
    subscription_status: STATUSES[i % 4]!,
    is_duplicate: i % 6 === 5,
    is_mandatory: i % 3 === 1,
    created_at: new Date(Date.UTC(2026, 2, 1 + day, 10, 0, 0)),
  };
}

async function seed(database: Database): Promise<Fixture[]> {
  const p = database.prisma;
  await p.country.createMany({ data: COUNTRIES.map(([code, name]) => ({ code, name })) });
  await p.branch.createMany({ data: BRANCHES.map((name) => ({ name })) });
  await p.sheet.createMany({ data: SHEETS.map((name) => ({ name })) });
  const ids = async <T extends { id: number; name: string }>(rows: Promise<T[]>) => new Map((await rows).map((r) => [r.name, r.id]));
  const branches = await ids(p.branch.findMany({ select: { id: true, name: true } }));
  const countries = await ids(p.country.findMany({ select: { id: true, name: true } }));
  const sheets = await ids(p.sheet.findMany({ select: { id: true, name: true } }));
  const out: Fixture[] = [];
  for (let i = 0; i < COUNT; i++) {
    const f = fixtureRow(i);
    const { id } = await p.subscriber.create({
      data: {
        first_name: f.first_name,
        last_name: f.last_name,
        email: f.email,
        mobile: f.mobile,
        branch_id: f.branch_name ? branches.get(f.branch_name)! : null,
        country_id: f.country_name ? countries.get(f.country_name)! : null,
        sheet_id: f.sheet ? sheets.get(f.sheet)! : null,
        travel_date: f.travel_date ? new Date(`${f.travel_date}T00:00:00Z`) : null,
        subscription_status: f.subscription_status,
        is_duplicate: f.is_duplicate,
        is_mandatory: f.is_mandatory,
        created_at: f.created_at,
      },
      select: { id: true },
    });
    out.push({ id, ...f });
  }
  return out;
}

/**
 * docs/API.md's search, written again here: every word (spaces and commas separate them, the
 * first five count) is in the first name, the last name or the email, case ignored, or, when it is
 * a number (spaces, dots, dashes, brackets and a leading + dropped), in the mobile.
 */
function searchMatches(q: string) {
  const words = q.split(/[\s,]+/).filter(Boolean).slice(0, 5);
  return (r: Fixture) =>
    words.every((w) => {
      const digits = w.replace(/[\s().-]/g, "").replace(/^\+/, "");
      const text = [r.first_name, r.last_name, r.email].some((v) => v.toLowerCase().includes(w.toLowerCase()));
      return text || (/^\d+$/.test(digits) && r.mobile.includes(digits));
    });
}

const cmp = (a: string | number | boolean | Date | null, b: typeof a) => {
  if (a === b) return 0;
  if (a === null) return 1; // empty values last (ascending)
  if (b === null) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
};

function expectedOrder(rows: Fixture[], column: (typeof SUBSCRIBER_SORT_COLUMNS)[number], desc: boolean) {
  const key = (r: Fixture) => (column === "subscription_status" ? STATUSES.indexOf(r.subscription_status) : r[column]);
  const sorted = [...rows].sort((a, b) => cmp(key(a), key(b)) || a.id - b.id);
  return (desc ? sorted.reverse() : sorted).map((r) => r.id);
}

const newestFirst = (rows: Fixture[]) => expectedOrder(rows, "created_at", true);

async function allPages(query: string): Promise<{ ids: number[]; total: number; length: number }> {
  const ids: number[] = [];
  let page = 1;
  let first: Awaited<ReturnType<typeof listSubscribers>> | null = null;
  for (;;) {
    const result = await listSubscribers(EVERY, subscriberFiltersSchema.parse(Object.fromEntries(new URLSearchParams(`${query}&page=${page}`))));
    first ??= result;
    ids.push(...result.data.map((r) => r.id));
    if (result.data.length < 10) break;
    page += 1;
  }
  return { ids, total: first.pagination.total, length: first.pagination.length };
}

for (const kind of testDbKinds()) {
  describe(`subscriber list (${kind})`, () => {
    let database: Database;
    let rows: Fixture[];
    let staff: Awaited<ReturnType<typeof createUsers>>["staff"];

    beforeAll(async () => {
      database = await testDatabase(kind);
      rows = await seed(database);
      staff = (await createUsers(database)).staff;
      actAs(staff);
    });
    afterAll(async () => {
      actAs(null);
      await database?.close();
    });

    it("pages by 10, newest first, with the true totals", async () => {
      const page1 = await listSubscribers(EVERY, subscriberFiltersSchema.parse({}));
      expect(page1.pagination).toEqual({ total: COUNT, length: 3, page: 1, per_page: 10 });
      expect(page1.data.map((r) => r.id)).toEqual(newestFirst(rows).slice(0, 10));
      const page3 = await listSubscribers(EVERY, subscriberFiltersSchema.parse({ page: "3" }));
      expect(page3.data.map((r) => r.id)).toEqual(newestFirst(rows).slice(20));
      const beyond = await listSubscribers(EVERY, subscriberFiltersSchema.parse({ page: "9" }));
      expect(beyond).toEqual({ data: [], pagination: { total: COUNT, length: 3, page: 9, per_page: 10 } });
    });

    it("gives each row its country's code, by which pages name the country in the reader's language", async () => {
      const { data } = await listSubscribers(EVERY, subscriberFiltersSchema.parse({ country_name: "germany" }));
      expect(data.length).toBe(rows.filter((r) => r.country_name === "Germany").length);
      expect(data.length).toBeGreaterThan(0);
      for (const r of data) expect(r.country_code?.trim()).toBe("DE");
    });

    const filters: [query: string, expected: (r: Fixture) => boolean][] = [
      ["first_name=cle", (r) => r.first_name === "Cleo"],
      ["last_name=URIN", (r) => r.last_name === "Turing"],
      ["email=babbage", (r) => r.email.includes("babbage")],
      ["email=E%40EXAMPLE", (r) => r.email.includes("e@example")],
      ["mobile=%2B44%207400%20123401", (r) => r.mobile === "+447400123401"],
      ["mobile=4012340", (r) => r.mobile.includes("4012340")],
      ["branch_name=port", (r) => r.branch_name === "Southport Central"],
      ["country_name=KING", (r) => r.country_name === "United Kingdom"],
      // A country's French or Arabic name finds it too: the reader filters in their own words.
      ["country_name=allemagne", (r) => r.country_name === "Germany"],
      [`country_name=${encodeURIComponent("ألمانيا")}`, (r) => r.country_name === "Germany"],
      ["country_name=ROYAUME", (r) => r.country_name === "United Kingdom"],
      ["sheet=spring", (r) => r.sheet === "Spring campaign"],
      ["sheet=_", (r) => r.sheet === "Walk_ins 100%"],
      ["sheet=%25", (r) => r.sheet === "Walk_ins 100%"],
      ["first_name=%25", () => false],
      ["subscription_status=expired", (r) => r.subscription_status === "expired"],
      ["is_duplicate=true", (r) => r.is_duplicate],
      ["is_duplicate=false", (r) => !r.is_duplicate],
      ["is_mandatory=true", (r) => r.is_mandatory],
      ["is_mandatory=false", (r) => !r.is_mandatory],
      ["travel_date_from=2027-01-10", (r) => r.travel_date !== null && r.travel_date >= "2027-01-10"],
      ["travel_date_to=2027-01-05", (r) => r.travel_date !== null && r.travel_date <= "2027-01-05"],
      ["travel_date_from=2027-01-06&travel_date_to=2027-01-06", (r) => r.travel_date === "2027-01-06"],
      ["created_from=2026-03-20", (r) => r.created_at >= new Date("2026-03-20T00:00:00Z")],
      ["created_to=2026-03-03", (r) => r.created_at < new Date("2026-03-04T00:00:00Z")],
      ["created_from=2026-03-11&created_to=2026-03-11", (r) => r.created_at.toISOString().startsWith("2026-03-11")],
      ["id=__ID__", (r) => r.id === rows[7]!.id],
      // Combined: every condition holds at once.
      ["subscription_status=active&is_mandatory=true", (r) => r.subscription_status === "active" && r.is_mandatory],
      ["first_name=a&country_name=france&is_duplicate=false", (r) => /a/i.test(r.first_name) && r.country_name === "France" && !r.is_duplicate],
      [
        "branch_name=north&sheet=walk&travel_date_from=2027-01-02&created_to=2026-03-25",
        (r) => r.branch_name === "Northgate" && r.sheet === "Walk_ins 100%" && r.travel_date !== null && r.travel_date >= "2027-01-02" && r.created_at < new Date("2026-03-26T00:00:00Z"),
      ],
      ["email=lovelace&mobile=12340&last_name=love&first_name=ada&subscription_status=pending", (r) => r.email.includes("lovelace") && r.first_name === "Ada" && r.subscription_status === "pending" && r.mobile.includes("12340")],
      // The search (q): each word somewhere in a name or the email, or a number in the mobile.
      ["q=ada", searchMatches("ada")],
      ["q=ADA%20lovelace", searchMatches("ADA lovelace")],
      ["q=ada,lovelace", searchMatches("ada,lovelace")],
      ["q=%2C%20ada%2C%2C%20lovelace%2C", searchMatches(", ada,, lovelace,")],
      ["q=hopper%20cleo", searchMatches("hopper cleo")],
      ["q=123401", searchMatches("123401")],
      ["q=%2B44%207400%20123401", searchMatches("+44 7400 123401")],
      ["q=(7400)-1234-05", searchMatches("(7400)-1234-05")],
      ["q=dan%20123403", searchMatches("dan 123403")],
      // % and _ are the characters they are, not LIKE's wildcards.
      ["q=_", searchMatches("_")],
      ["q=%25", searchMatches("%")],
      ["q=100%25", searchMatches("100%")],
      ["q=a_e", searchMatches("a_e")],
      ["q=%25e", searchMatches("%e")],
      // Five words at most: a sixth matching nothing changes nothing.
      ["q=a%20e%20l%20o%20c%20zzzzz", searchMatches("a e l o c zzzzz")],
      ["q=a%20e%20l%20zzzzz", searchMatches("a e l zzzzz")],
      ["q=ada&subscription_status=pending", (r) => searchMatches("ada")(r) && r.subscription_status === "pending"],
    ];

    it("has search cases that tell the rule from a weaker one", () => {
      // The wildcard cases match one row (a wildcard would match every row), five words all
      // rows, and a word the sixth would be none.
      for (const q of ["_", "%", "100%"]) expect(rows.filter(searchMatches(q)).map((r) => r.id)).toEqual([rows[13]!.id]);
      expect(rows.filter(searchMatches("a e l o c zzzzz"))).toHaveLength(COUNT);
      expect(rows.filter(searchMatches("a e l zzzzz"))).toHaveLength(0);
      expect(rows.filter(searchMatches("dan 123403")).map((r) => r.id)).toEqual([rows[3]!.id]);
      expect(rows.filter(searchMatches("(7400)-1234-05")).map((r) => r.id)).toEqual([rows[5]!.id]);
      expect(rows.filter(searchMatches("a_e"))).toHaveLength(0);
    });

    it.each(filters)("filters %s", async (query, predicate) => {
      const q = query.replace("__ID__", String(rows[7]!.id));
      const expected = newestFirst(rows.filter(predicate));
      const got = await allPages(q);
      expect(got.ids).toEqual(expected);
      expect(got.total).toBe(expected.length);
      expect(got.length).toBe(Math.ceil(expected.length / 10));
    });

    it.each(SUBSCRIBER_SORT_COLUMNS.flatMap((c) => [c, `-${c}`]))("sorts by %s over every page, ties broken by id", async (sort) => {
      const column = sort.replace(/^-/, "") as (typeof SUBSCRIBER_SORT_COLUMNS)[number];
      const got = await allPages(`sort=${sort}`);
      expect(got.ids).toEqual(expectedOrder(rows, column, sort.startsWith("-")));
    });

    it.each([
      ["sort=last_name&is_mandatory=false", "last_name", (r: Fixture) => !r.is_mandatory],
      ["sort=-branch_name&branch_name=o", "branch_name", (r: Fixture) => /o/i.test(r.branch_name ?? "")],
      ["sort=sheet&sheet=walk", "sheet", (r: Fixture) => r.sheet === "Walk_ins 100%"],
      ["sort=country_name&is_duplicate=false", "country_name", (r: Fixture) => !r.is_duplicate],
      ["sort=-country_name&first_name=e", "country_name", (r: Fixture) => /e/i.test(r.first_name)],
    ] as const)("sorts and filters together (%s), and paging keeps both", async (query, column, predicate) => {
      const got = await allPages(query);
      expect(got.ids).toEqual(expectedOrder(rows.filter(predicate), column, query.startsWith("sort=-")));
    });

    it("GET /api/v1/subscribers answers docs/API.md's records and pagination", async () => {
      const response = await GET(apiRequest("/api/v1/subscribers?sort=id&page=1"), {});
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: SubscriberRecord[]; pagination: unknown };
      expect(body.pagination).toEqual({ total: COUNT, length: 3, page: 1, per_page: 10 });
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const record of body.data) {
        const f = byId.get(record.id)!;
        expect(record).toEqual({
          id: f.id,
          first_name: f.first_name,
          last_name: f.last_name,
          branch_name: f.branch_name,
          country_name: f.country_name,
          email: f.email,
          mobile: f.mobile,
          travel_date: f.travel_date,
          sheet: f.sheet ? { name: f.sheet } : null,
          subscription_status: f.subscription_status,
          is_duplicate: f.is_duplicate,
          is_mandatory: f.is_mandatory,
          created_at: f.created_at.toISOString(),
        });
      }
    });

    it.each([
      ["subscription_status=paused", "subscription_status"],
      ["is_duplicate=maybe", "is_duplicate"],
      ["is_mandatory=1", "is_mandatory"],
      ["page=0", "page"],
      ["page=abc", "page"],
      ["sort=password", "sort"],
    ])("GET with %s is a 400 naming the field", async (query, field) => {
      const response = await GET(apiRequest(`/api/v1/subscribers?${query}`), {});
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; fields: Record<string, string[]> } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.fields[field]?.[0]).toBeTruthy();
    });

    it("GET is a 401 when nobody is signed in", async () => {
      actAs(null);
      try {
        const response = await GET(apiRequest("/api/v1/subscribers"), {});
        expect(response.status).toBe(401);
      } finally {
        actAs(staff);
      }
    });
  });
}
