import path from "node:path";
import { ESLint } from "eslint";
import fc from "fast-check";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";
import { COLUMNS, SubscriberTable } from "@/app/(console)/subscribers/subscriber-table";
import { catalogue } from "@/lib/i18n/catalogues";
import { FIT_COLUMNS, type TableColumn } from "@/lib/subscribers/columns";
import { createTranslator } from "next-intl";
import { formatsFor } from "@/lib/i18n/format";
import type { ListedSubscriber } from "@/lib/subscribers/queries";

// The subscriber list's rows are JSX like the rest of the console: React writes and escapes them.

const row = (over: Partial<ListedSubscriber> = {}): ListedSubscriber => ({
  id: 42,
  first_name: "Ada",
  last_name: "Lovelace",
  branch_name: "Dublin",
  country_name: null,
  country_code: null,
  email: "ada@example.com",
  mobile: "+353871234567",
  travel_date: new Date("2027-03-03T00:00:00Z"),
  sheet_name: null,
  subscription_status: "active",
  is_duplicate: true,
  is_mandatory: false,
  created_at: new Date("2026-11-22T09:14:05Z"),
  ...over,
});

const table = (rows: ListedSubscriber[], hidden: TableColumn[] | null = [], shown?: string[], words?: React.ComponentProps<typeof SubscriberTable>["words"]) =>
  renderToStaticMarkup(
    inEnglish(SubscriberTable, {
      rows,
      sort: { column: "created_at", direction: "desc" },
      params: {},
      path: "/subscribers",
      settings: { hidden, density: "comfortable" },
      selectForm: "bulk-change",
      ...(shown ? { shown } : {}),
      ...(words ? { words } : {}),
    }),
  );
/** The table as an English page renders it: its client parts read the catalogue's words. */
function inEnglish<P extends object>(component: React.ComponentType<P>, props: P) {
  const Provider = NextIntlClientProvider as unknown as React.FC<{ locale: string; timeZone: string; messages: object; children?: React.ReactNode }>;
  return createElement(Provider, { locale: "en", messages: catalogue("en"), timeZone: "UTC" }, createElement(component, props));
}
const body = (markup: string) => markup.slice(markup.indexOf("<tbody"), markup.indexOf("</tbody>"));

describe("SubscriberTable's rows", () => {
  it("name the country in the reader's language from its code, and as stored without one", () => {
    const french = { t: createTranslator({ locale: "fr", messages: catalogue("fr") }), f: formatsFor("fr", "UTC") };
    const rows = [row({ country_name: "Germany", country_code: "DE" }), row({ id: 43, country_name: "Atlantis", country_code: null })];
    const out = body(table(rows, [], undefined, french));
    expect(out).toContain('<bdi title="Allemagne">Allemagne</bdi>');
    expect(out).toContain('<bdi title="Atlantis">Atlantis</bdi>');
    expect(out).not.toContain("Germany");
    expect(body(table(rows))).toContain('<bdi title="Germany">Germany</bdi>');
  });

  it("are a row per subscriber and a cell per column, the box and the record link in their places", () => {
    const out = body(table([row(), row({ id: 43 })]));
    expect(out.match(/<tr>/g)).toHaveLength(2);
    expect(out.match(/<td[ >]/g)).toHaveLength(2 * COLUMNS.length);
    expect(out).toContain('<td class="code"><input type="checkbox" form="bulk-change" aria-label="Select Ada Lovelace" name="select" value="42"/>42</td>');
    expect(out).toContain('<td class="font-medium card"><a href="/subscribers/42"><bdi title="Ada">Ada</bdi></a></td>');
    expect(out).toContain('<span class="badge badge-amber">Duplicate</span>');
    expect(out).toContain('<td class="quiet">No</td>');
    expect(out).toContain('<time dateTime="2027-03-03">3 Mar 2027</time>');
    expect(out).toContain('<time dateTime="2026-11-22T09:14:05.000Z">');
    expect(out).toContain('<span aria-hidden="true" class="text-slate-400">—</span><span class="sr-only">none</span>');
  });

  it("with no columns chosen, show those that fit the screen, the wider ones only from their breakpoint up", () => {
    const markup = table([row()], null);
    const out = body(markup);
    expect(out.match(/<td[ >]/g)).toHaveLength(Object.keys(FIT_COLUMNS).length);
    expect(out).not.toContain(">42<"); // the id and the dates are a choice away
    expect(out).not.toContain("<time");
    expect(out).toContain('<td class="font-medium card"><input type="checkbox"');
    expect(out).toContain('<td class="card-meta from-lg"><bdi title="Dublin">Dublin</bdi></td>');
    expect(out).toContain('<td class="code text-slate-700 card-meta from-xl"><bdi dir="ltr">+353871234567</bdi></td>');
    expect(markup).toMatch(/<th [^>]*class="list-th from-xl"[^>]*><a class="sort-link" href="\/subscribers\?sort=country_name"/);
  });

  it("keep a choice of columns, the user's or the address's, whatever the screen's width", () => {
    for (const out of [table([row()], ["email"]), table([row()], null, ["id", "country_name", "sheet"])]) {
      expect(out).not.toMatch(/from-(lg|xl)/);
      expect(out).toContain('<td class="code"><input type="checkbox"');
    }
    expect(body(table([row()], null, ["id", "country_name", "sheet"])).match(/<td[ >]/g)).toHaveLength(3);
  });

  it("name the subscriber inside the link when the first name's column is hidden", () => {
    const out = body(table([row()], ["id", "first_name"]));
    expect(out).toContain('<a href="/subscribers/42"><bdi title="Lovelace">Lovelace</bdi><span class="sr-only"> (<bdi>Ada Lovelace</bdi>)</span></a>');
  });

  it("keep whatever a subscriber's text holds as text", () => {
    const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (first, last, email) => {
        const out = body(table([row({ first_name: first, last_name: last, email, branch_name: last })]));
        // Every tag in the rows is one the component wrote.
        for (const tag of out.match(/<\/?[a-z]+/g) ?? []) expect(["<tbody", "<tr", "</tr", "<td", "</td", "<input", "<a", "</a", "<bdi", "</bdi", "<span", "</span", "<time", "</time"]).toContain(tag);
        expect(out).toContain(`aria-label="${escape(`Select ${first} ${last}`)}"`);
      }),
    );
  });
});

describe("the lint configuration", () => {
  it("refuses dangerouslySetInnerHTML in every file, the subscriber table's included", async () => {
    const eslint = new ESLint();
    for (const file of ["app/(console)/subscribers/subscriber-table.tsx", "components/ui/badge.tsx", "app/layout.tsx"]) {
      const config = (await eslint.calculateConfigForFile(path.resolve(file))) as { rules: Record<string, unknown[]> };
      expect(config.rules["react/no-danger"]?.[0], file).toBe(2);
    }
    // Loading the configuration loads every plugin it names.
  }, 60_000);
});
