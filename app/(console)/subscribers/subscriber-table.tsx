import { createTranslator } from "next-intl";
import { TableFrame } from "@/components/list/list-table";
import { SelectPage } from "@/components/list/select-page";
import { FIELD, type FieldLabelKey } from "@/lib/subscribers/fields";
import { SortHeader } from "@/components/list/sort-header";
import { Badge, EmptyValue, type BadgeTone } from "@/components/ui/badge";
import { config } from "@/lib/config";
import { isoDay } from "@/lib/format";
import { catalogue, type Messages } from "@/lib/i18n/catalogues";
import { formatsFor, type Formats } from "@/lib/i18n/format";
import type { RawParams } from "@/lib/list/params";
import { backQuery, listAddress } from "@/lib/subscribers/back";
import { FIT_COLUMNS, type TableColumn, type TableSettings } from "@/lib/subscribers/columns";
import type { SubscriberFilters } from "@/lib/subscribers/filters";
import { statusKey, STATUS_TONE } from "@/lib/subscribers/labels";
import type { ListedSubscriber } from "@/lib/subscribers/queries";
import { countryName } from "@/lib/countries/names";

/** What the table says, in the reader's language: a translator of the whole catalogue, the formats. */
export type TableWords = { t: ReturnType<typeof createTranslator<Messages>>; f: Formats };

/** English words, for a table rendered outside a request (tests). */
export function englishTableWords(): TableWords {
  return { t: createTranslator({ locale: "en", messages: catalogue("en") }), f: formatsFor("en", config().CONSOLE_TIME_ZONE) };
}

/** Typed text is isolated (<bdi>): a right-to-left name cannot reorder what is around it. */
const text = (value: string | null) => (value === null ? <EmptyValue /> : <bdi title={value}>{value}</bdi>);
/** Yes is a badge; no is the column's quiet text (its cells are .quiet). */
const flag = (value: boolean, yes: string, tone: BadgeTone, w: TableWords) => (value ? <Badge tone={tone}>{yes}</Badge> : w.t("subscribers.no"));

/**
 * Every field of docs/SPEC.md's subscriber; the status and flags early, to read without scrolling.
 * The card-* classes place a cell in a phone's card (app/globals.css): the others stay off it.
 */
/** `key`: the catalogue's label, which the table and the column chooser show. */
export const COLUMNS: { column: TableColumn; key: FieldLabelKey; render: (s: ListedSubscriber, w: TableWords) => React.ReactNode; className?: string }[] = [
  { column: "id", key: FIELD.id.key, render: (s) => s.id, className: "code" },
  { column: "first_name", key: FIELD.first_name.key, render: (s) => text(s.first_name), className: "font-medium card" },
  { column: "last_name", key: FIELD.last_name.key, render: (s) => text(s.last_name), className: "name font-medium text-slate-900 card" },
  { column: "email", key: FIELD.email.key, render: (s) => text(s.email), className: "wide card-line" },
  // A mobile has no letter to give it a direction: left to right, in an Arabic page too.
  { column: "mobile", key: FIELD.mobile.key, render: (s) => <bdi dir="ltr">{s.mobile}</bdi>, className: "code text-slate-700 card-meta" },
  {
    column: "subscription_status",
    key: FIELD.subscription_status.key,
    render: (s, w) => <Badge tone={STATUS_TONE[s.subscription_status]}>{w.t(statusKey(s.subscription_status))}</Badge>,
    className: "card-status",
  },
  { column: "is_duplicate", key: FIELD.is_duplicate.key, render: (s, w) => flag(s.is_duplicate, w.t("subscribers.table.duplicate"), "amber", w), className: "quiet" },
  { column: "is_mandatory", key: FIELD.is_mandatory.key, render: (s, w) => flag(s.is_mandatory, w.t("subscribers.table.mandatory"), "violet", w), className: "quiet" },
  { column: "branch_name", key: FIELD.branch_name.key, render: (s) => text(s.branch_name), className: "card-meta" },
  { column: "country_name", key: FIELD.country_name.key, render: (s, w) => text(s.country_name === null ? null : countryName(w.f.locale, { code: s.country_code, name: s.country_name })) },
  {
    column: "travel_date",
    key: FIELD.travel_date.key,
    render: (s, w) => (s.travel_date ? <time dateTime={isoDay(s.travel_date)}>{w.f.day(s.travel_date)}</time> : <EmptyValue />),
  },
  { column: "sheet", key: FIELD.sheet.key, render: (s) => text(s.sheet_name), className: "short" },
  {
    column: "created_at",
    key: FIELD.created_at.key,
    render: (s, w) => <time dateTime={s.created_at.toISOString()}>{w.f.dateTime(s.created_at)}</time>,
    className: "text-slate-600",
  },
];

type Column = (typeof COLUMNS)[number];

/** A fitted column's width class: shown from that breakpoint up (app/globals.css), and as a card below md. */
const FROM = { md: "", lg: "from-lg", xl: "from-xl" } as const;
const fitClass = (column: TableColumn, fit: boolean) => (fit && column in FIT_COLUMNS ? FROM[FIT_COLUMNS[column as keyof typeof FIT_COLUMNS]] : "");
const cellClass = (c: Column, fit: boolean) => [c.className, fitClass(c.column, fit)].filter(Boolean).join(" ");

/**
 * One plain link a row (not a <Link>, a client component in every row), carrying the list's
 * address back; named for screen readers when the first name is hidden.
 */
function RecordLink({ s, named, back, children }: { s: ListedSubscriber; named: boolean; back: string; children: React.ReactNode }) {
  if (named) return <a href={`/subscribers/${s.id}${back}`}>{children}</a>;
  return (
    <a href={`/subscribers/${s.id}${back}`}>
      {children}
      <span className="sr-only">
        {" "}
        (<bdi>{`${s.first_name} ${s.last_name}`}</bdi>)
      </span>
    </a>
  );
}

/** Plain elements only, nothing that hydrates; a cell holds only what it shows, as each row is sent twice (HTML and RSC payload). */
function Row({ s, columns, fit, linked, form, back, w }: { s: ListedSubscriber; columns: readonly Column[]; fit: boolean; linked: TableColumn; form: string; back: string; w: TableWords }) {
  return (
    <tr>
      {columns.map((c, i) => {
        const value = c.render(s, w);
        const content =
          c.column === linked ? (
            <RecordLink s={s} named={linked === "first_name"} back={back}>
              {value}
            </RecordLink>
          ) : (
            value
          );
        const className = cellClass(c, fit);
        return (
          <td key={c.column} {...(className ? { className } : {})}>
            {i === 0 ? (
              <>
                <input type="checkbox" name="select" value={s.id} form={form} aria-label={w.t("subscribers.table.select", { name: `${s.first_name} ${s.last_name}` })} />
                {content}
              </>
            ) : (
              content
            )}
          </td>
        );
      })}
    </tr>
  );
}

export function SubscriberTable({
  rows,
  sort,
  params,
  path,
  settings,
  shown,
  selectForm,
  words,
}: {
  rows: ListedSubscriber[];
  sort: SubscriberFilters["sort"];
  params: RawParams;
  path: string;
  settings: TableSettings;
  /** The columns shown, in order: the address's `columns` (a saved view's), else the user's choice, else those that fit the screen. */
  shown?: readonly string[];
  /** The bulk change form the row boxes belong to. */
  selectForm: string;
  /** The reader's language (the page's); English when not given. */
  words?: TableWords;
}) {
  const w = words ?? englishTableWords();
  const { hidden } = settings;
  const fit = !shown && !hidden;
  const columns = shown
    ? shown.flatMap((name) => COLUMNS.filter((c) => c.column === name))
    : COLUMNS.filter(hidden ? (c) => !hidden.includes(c.column) : (c) => c.column in FIT_COLUMNS);
  const linked = columns.some((c) => c.column === "first_name") ? "first_name" : columns[0]!.column;
  const back = backQuery(listAddress(params));
  return (
    // Scrolled within itself on a wider screen, so its header stays in sight; a phone's cards scroll with the page.
    <TableFrame label={w.t("subscribers.table.label")} landmark className="md:max-h-[75vh]">
      {/* The cells' padding, colour, the sticky first column and a phone's cards: app/globals.css (.subscriber-table). */}
      <table className={`subscriber-table min-w-full divide-y divide-slate-200 ${settings.density === "compact" ? "compact text-xs" : "text-sm"}`}>
        <caption className="sr-only">{w.t("subscribers.table.caption")}</caption>
        <thead className="sticky top-0 z-20 bg-slate-50">
          <tr>
            {columns.map((c, i) => (
              <SortHeader
                key={c.column}
                column={c.column}
                label={w.t(c.key)}
                sort={sort}
                params={params}
                path={path}
                className={i === 0 ? "sticky start-0 z-30 bg-slate-50" : fitClass(c.column, fit)}
                before={i === 0 ? <span className="me-2 inline-flex align-middle"><SelectPage form={selectForm} /></span> : null}
              />
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((s) => (
            <Row key={s.id} s={s} columns={columns} fit={fit} linked={linked} form={selectForm} back={back} w={w} />
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
