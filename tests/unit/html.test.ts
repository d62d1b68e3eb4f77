import fc from "fast-check";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { COLUMNS, rowsHtml } from "@/app/(console)/subscribers/subscriber-table";
import { Badge, EmptyValue } from "@/components/ui/badge";
import { badgeHtml, EMPTY_VALUE_HTML } from "@/components/ui/badge-html";
import { escapeHtml, html, Html } from "@/lib/html";
import { STATUS_LABEL, STATUS_TONE } from "@/lib/subscribers/labels";
import type { SubscriberRow } from "@/lib/subscribers/queries";

// Markup written as text (lib/html.ts): what a value can do inside it, and that the subscriber
// rows written that way say what the React components said.

const unescape = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" })[e]!);

describe("escapeHtml and html", () => {
  it("leaves no character that could open a tag, an entity or leave a quoted attribute", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const escaped = escapeHtml(s);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped.replace(/&(amp|lt|gt|quot|#39);/g, "")).not.toContain("&");
        expect(unescape(escaped)).toBe(s);
      }),
    );
  });

  it("escapes every value put into a template, in text and in attributes alike", () => {
    const name = `"><script>alert('x')</script>`;
    expect(html`<bdi title="${name}">${name}</bdi>`.text).toBe(
      '<bdi title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</bdi>',
    );
  });

  it("puts markup in as it is, lists one after another, and nothing for null, undefined and false", () => {
    const inner = html`<b>${"a&b"}</b>`;
    expect(html`<p>${inner}${[html`<i>1</i>`, "<2>", 3]}${null}${undefined}${false}</p>`.text).toBe("<p><b>a&amp;b</b><i>1</i>&lt;2&gt;3</p>");
    expect(String(inner)).toBe("<b>a&amp;b</b>");
    expect(new Html("<hr>").text).toBe("<hr>");
  });
});

describe("the markup twins of Badge and EmptyValue", () => {
  it("write what the components render", () => {
    for (const status of Object.keys(STATUS_LABEL) as (keyof typeof STATUS_LABEL)[]) {
      const tone = STATUS_TONE[status];
      const label = STATUS_LABEL[status];
      expect(badgeHtml(tone, label).text).toBe(renderToStaticMarkup(Badge({ tone, children: label })));
    }
    expect(badgeHtml("amber", "Duplicate").text).toBe(renderToStaticMarkup(Badge({ tone: "amber", children: "Duplicate" })));
    expect(EMPTY_VALUE_HTML.text).toBe(renderToStaticMarkup(createElement(EmptyValue)));
  });
});

describe("rowsHtml", () => {
  const row = (over: Partial<SubscriberRow> = {}): SubscriberRow => ({
    id: 42,
    first_name: "Ada",
    last_name: "Lovelace",
    branch_name: "Dublin",
    country_name: null,
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

  it("writes a row per subscriber and a cell per column, the box and the record link in their places", () => {
    const out = rowsHtml([row(), row({ id: 43 })], COLUMNS, "first_name", "bulk-change").text;
    expect(out.match(/<tr>/g)).toHaveLength(2);
    expect(out.match(/<td[ >]/g)).toHaveLength(2 * COLUMNS.length);
    expect(out).toContain('<td class="code"><input type="checkbox" name="select" value="42" form="bulk-change" aria-label="Select Ada Lovelace">42</td>');
    expect(out).toContain('<td class="font-medium"><a href="/subscribers/42"><bdi title="Ada">Ada</bdi></a></td>');
    expect(out).toContain('<span class="badge badge-amber">Duplicate</span>');
    expect(out).toContain('<td class="quiet">No</td>');
    expect(out).toContain('<time datetime="2027-03-03">3 Mar 2027</time>');
    expect(out).toContain('<time datetime="2026-11-22T09:14:05.000Z">');
    expect(out).toContain(EMPTY_VALUE_HTML.text);
  });

  it("names the subscriber inside the link when the first name's column is hidden", () => {
    const columns = COLUMNS.filter((c) => c.column !== "first_name" && c.column !== "id");
    const out = rowsHtml([row()], columns, columns[0]!.column, "f").text;
    expect(out).toContain('<a href="/subscribers/42"><bdi title="Lovelace">Lovelace</bdi><span class="sr-only"> (<bdi>Ada Lovelace</bdi>)</span></a>');
  });

  it("keeps whatever a subscriber's text holds as text", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (first, last, email) => {
        const out = rowsHtml([row({ first_name: first, last_name: last, email, branch_name: last })], COLUMNS, "first_name", "f").text;
        // Every tag in the output is one the template wrote.
        for (const tag of out.match(/<\/?[a-z]+/g) ?? []) expect(["<tr", "</tr", "<td", "</td", "<input", "<a", "</a", "<bdi", "</bdi", "<span", "</span", "<time", "</time"]).toContain(tag);
        expect(out).toContain(`<bdi title="${escapeHtml(first)}">${escapeHtml(first)}</bdi>`);
        expect(out).toContain(`aria-label="${escapeHtml(`Select ${first} ${last}`)}"`);
      }),
    );
  });
});
