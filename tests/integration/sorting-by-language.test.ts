// Names sort in the reader's language (docs/sorting-by-language.md): first and last names, branch
// and country names, in the subscriber list and the branch list, on each database. On PostgreSQL
// each language's order is CLDR's (the reference: Intl.Collator of that language); PGlite's ICU
// carries no language's data, so there every language sorts in the root order (English's and French's).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as subscribersApi from "@/app/api/v1/subscribers/route";
import { branchScope } from "@/lib/auth/scope";
import type { SessionUser } from "@/lib/auth/permissions";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { listBranches } from "@/lib/branches/queries";
import type { Database } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/locales";
import { SORT_COLLATION } from "@/lib/list/collation";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { listSubscribers } from "@/lib/subscribers/queries";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest } from "../helpers/http";

const EVERY = branchScope({ role: "admin", branch_ids: null });
const NAMES = ["Zoe", "Émile", "يوسف", "Ærø", "Zoë", "أحمد", "Ødegaard", "بشير", "Ölaf", "إبراهيم", "Aaron", "ثامر", "Oscar"];

// CLDR's root order: English and French (no tailoring of these letters); Æ is "ae", Ø and Ö are "o"
// with accents, which only break ties; Latin before Arabic.
const ROOT = ["Aaron", "Ærø", "Émile", "Ødegaard", "Ölaf", "Oscar", "Zoe", "Zoë", "أحمد", "إبراهيم", "بشير", "ثامر", "يوسف"];
// Arabic's tailoring: Arabic script first, and alef with hamza below (إ) before alef with hamza above (أ).
const ARABIC = ["إبراهيم", "أحمد", "بشير", "ثامر", "يوسف", "Aaron", "Ærø", "Émile", "Ødegaard", "Ölaf", "Oscar", "Zoe", "Zoë"];
const EXPECTED: Record<Locale, string[]> = { en: ROOT, fr: ROOT, ar: ARABIC };
const LANGUAGES: Locale[] = ["en", "fr", "ar"];
const reference = (locale: Locale) => [...NAMES].sort(new Intl.Collator(locale).compare);

const SUBSCRIBER_SORTS = [
  { sort: "first_name", name: (r: { first_name: string }) => r.first_name },
  { sort: "last_name", name: (r: { last_name: string }) => r.last_name },
  { sort: "branch_name", name: (r: { branch_name: string | null }) => r.branch_name },
  { sort: "country_name", name: (r: { country_name: string | null }) => r.country_name },
] as const;

for (const kind of testDbKinds()) {
  describe(`sorting by language on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser };

    beforeAll(async () => {
      database = await testDatabase(kind);
      users = await createUsers(database);
      for (const [i, name] of NAMES.entries()) {
        const branch = await database.prisma.branch.create({ data: { name } });
        const country = await database.prisma.country.create({ data: { name, code: `X${String.fromCharCode(65 + i)}` } });
        await database.prisma.subscriber.create({
          data: { first_name: name, last_name: name, email: `s${i}@example.com`, mobile: `+4477009000${String(i).padStart(2, "0")}`, branch_id: branch.id, country_id: country.id },
        });
      }
    });
    afterAll(async () => {
      await database?.close();
    });
    beforeEach(() => actAs(users.admin));

    // Both pages of the list (10 a page), in `locale`'s collation.
    const allPages = async (sort: string, locale: Locale) => {
      const pages = await Promise.all(["1", "2"].map((page) => listSubscribers(EVERY, subscriberFiltersSchema.parse({ sort, page }), SORT_COLLATION[locale])));
      return pages.flatMap((p) => p.data);
    };

    // The order each language gets on this database.
    const expected = (locale: Locale) => (kind === "postgres" ? EXPECTED[locale] : ROOT);

    it("the expected orders are CLDR's, as Intl.Collator of each language has them", () => {
      for (const locale of LANGUAGES) expect(reference(locale), locale).toEqual(EXPECTED[locale]);
    });

    for (const locale of LANGUAGES) {
      it(`sorts the subscriber list's names in ${locale}, ascending and descending`, async () => {
        for (const { sort, name } of SUBSCRIBER_SORTS) {
          for (const [query, order] of [[sort, expected(locale)], [`-${sort}`, [...expected(locale)].reverse()]] as const) {
            const data = await allPages(query, locale);
            expect(data.map(name), `${locale} sort=${query}`).toEqual(order);
          }
        }
      });

      it(`sorts the branch list by name in ${locale}, ascending and descending, across pages`, async () => {
        const read = async (sort: string) => {
          const pages = await Promise.all(["1", "2"].map((page) => listBranches(EVERY, branchFiltersSchema.parse({ sort, page }), SORT_COLLATION[locale])));
          return pages.flatMap((p) => p.data.map((b) => b.name));
        };
        expect(await read("name")).toEqual(expected(locale));
        expect(await read("-name")).toEqual([...expected(locale)].reverse());
      });
    }

    it("the API sorts in its answer's language: Accept-Language, else the root order", async () => {
      const names = async (headers: Record<string, string>) => {
        const read = async (page: number) => {
          const response = await subscribersApi.GET(apiRequest(`/api/v1/subscribers?sort=first_name&page=${page}`, { headers }), undefined as never);
          return ((await response.json()) as { data: { first_name: string }[] }).data.map((r) => r.first_name);
        };
        return [...(await read(1)), ...(await read(2))];
      };
      expect(await names({ "accept-language": "ar" })).toEqual(expected("ar"));
      expect(await names({ "accept-language": "fr-FR,fr;q=0.9" })).toEqual(expected("fr"));
      expect(await names({})).toEqual(ROOT);
    });

    it("filters match as before: case and accents as typed, whatever the language", async () => {
      for (const locale of LANGUAGES) {
        const f = (q: Record<string, string>) => listSubscribers(EVERY, subscriberFiltersSchema.parse({ ...q, sort: "first_name" }), SORT_COLLATION[locale]);
        expect((await f({ first_name: "zo" })).data.map((r) => r.first_name), locale).toEqual(["Zoe", "Zoë"]);
        expect((await f({ first_name: "emile" })).data, locale).toEqual([]); // "É" is not "e" to the filter
        expect((await f({ country_name: "ø" })).data.map((r) => r.first_name), locale).toEqual(["Ærø", "Ødegaard"]);
      }
    });

    if (kind === "pglite") {
      it("PGlite: its ICU sorts every language in the root order (no Arabic tailoring), still not by code point", async () => {
        const names = (await allPages("first_name", "ar")).map((r) => r.first_name);
        expect(names).toEqual(ROOT);
        expect(names).not.toEqual([...NAMES].sort());
      });
    }
  });
}
