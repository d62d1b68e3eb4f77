import { parse } from "csv-parse/sync";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { catalogue } from "@/lib/i18n/catalogues";
import type { Locale } from "@/lib/i18n/locales";
import { summaryCsv, type PersonData, type SummaryWords } from "@/lib/people/archive";

// The person archive's summary.csv is for people: its prose is in the reader's language, while
// the header's names, the ids, the times (ISO) and the person's own values stay as they are.

const at = new Date("2026-11-30T10:00:00Z");
const DATA: PersonData = {
  generated_at: at.toISOString(),
  records: [
    {
      ...{ id: 7, state: "trash", first_name: "Émile", last_name: "Zoë", email: "emile@people.test", mobile: "+447400777001" },
      ...{ branch_id: null, country_id: null, sheet_id: null, travel_date: null, subscription_status: "active", is_mandatory: false },
      ...{ created_at: at, updated_at: null, deleted_at: at, merged_into: null },
      history: [{ id: "1", at, action: "subscriber.create", actor_email: null, entity: "subscriber", entity_id: "7", before: null, after: null }],
    } as PersonData["records"][number],
  ],
  merges: [{ id: "m1", survivor_id: 7, merged_ids: [8, 9], created_at: at, created_by: 1, undone_at: at }],
  bulk_changes: [{ id: "b1", change: { subscription_status: "cancelled" }, created_at: at, user_email: null, subscriber_ids: [7] }],
  audit_entries: [],
  imports: [{ id: "i1", file_name: "people.csv", dry_run: true, created_at: at, lines: [2], rejected_lines: [3], user_email: "ann@people.test" } as PersonData["imports"][number]],
  saved_views: [{ id: 4, name: "Émile", query: "q=emile", owner_email: "ann@people.test", shared: false }],
  exports: [{ id: "e1", created_at: at, completed_at: at, user_email: "ann@people.test", format: "csv", status: "completed", total_rows: 1 }],
};

const words = (locale: Locale) => createTranslator({ locale, messages: catalogue(locale), namespace: "record.archive" }) as unknown as SummaryWords;
const summary = (locale: Locale) => parse(summaryCsv(DATA, words(locale)), { bom: true, record_delimiter: "\r\n" }) as string[][];

describe("the person archive's summary", () => {
  it("reads in English as before", () => {
    expect(summary("en")).toEqual([
      ["place", "id", "when", "detail"],
      ["subscriber (trash)", "7", at.toISOString(), "Émile Zoë <emile@people.test> +447400777001"],
      ["history", "7", at.toISOString(), "subscriber.create by the system"],
      ["merge", "m1", at.toISOString(), "8 9 into 7 (undone)"],
      ["bulk change", "b1", at.toISOString(), `{"subscription_status":"cancelled"} by a removed user on 7`],
      ["import (preview)", "i1", at.toISOString(), "people.csv by ann@people.test: line 2; rejected rows file line 3"],
      ["saved view", "4", "", `"Émile" of ann@people.test: q=emile`],
      ["export", "e1", at.toISOString(), "CSV of 1 row by ann@people.test (completed)"],
    ]);
  });

  it.each(["fr", "ar"] as const)("in %s, has no English prose, and keeps the header, ids, times and values", (locale) => {
    const rows = summary(locale);
    const english = summary("en");
    expect(rows[0]).toEqual(["place", "id", "when", "detail"]);
    expect(rows.map((r) => [r[1], r[2]])).toEqual(english.map((r) => [r[1], r[2]]));
    expect(rows[1]![3]).toBe(english[1]![3]);
    const places = rows.slice(1).map((r) => r[0]);
    if (locale === "fr") expect(places).toEqual(["abonné (corbeille)", "historique", "fusion", "modification groupée", "import (aperçu)", "vue enregistrée", "export"]);
    else for (const place of places) expect(place).not.toMatch(/[A-Za-z]/);
    for (const [i, row] of rows.entries()) {
      if (i > 1) expect(row[3], `detail of line ${i}`).not.toMatch(/\b(by|into|undone|removed|the system|of|line|rows?)\b/);
    }
    expect(rows[2]![3]).toContain("subscriber.create");
    expect(rows[5]![3]).toContain("people.csv");
    expect(rows[6]![3]).toContain("q=emile");
  });
});
