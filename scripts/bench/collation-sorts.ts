// `npm run bench:collation`: the first page of every name sort at a million rows (console_bench,
// made by `npm run db:bulk -- --subscribers 1000000`), in each sort collation and in code-point
// order (the same statement without its COLLATE: today's sort before the languages), with the
// indexes its plan uses and its time; writes bench/results/collation-sorts.md
// (docs/sorting-by-language.md). The statements are the lists' own (subscriberListSql, branchListSql).
//
//   --database NAME   the bench database on DATABASE_URL's server (default console_bench)
//   --runs N          timed runs of each statement, after two warm-ups (default 15)
//   --out FILE        where to write the results (default bench/results/collation-sorts.md)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { branchScope } from "@/lib/auth/scope";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { branchListSql } from "@/lib/branches/queries";
import { config } from "@/lib/config";
import type { Statement } from "@/lib/db/sql";
import { SORT_COLLATION, type SortCollation } from "@/lib/list/collation";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { subscriberListSql } from "@/lib/subscribers/queries";
import { benchDatabaseUrl } from "@/tools/seed/bulk";
import { DEFAULT_SERVER } from "../bulk-load";
import { runScript } from "../script-utils";

const EVERY = branchScope({ role: "admin", branch_ids: null });

type Order = { label: string; collation: SortCollation | null };
const ORDERS: Order[] = [
  { label: `fr (and en): "${SORT_COLLATION.fr}"`, collation: SORT_COLLATION.fr },
  { label: `ar: "${SORT_COLLATION.ar}"`, collation: SORT_COLLATION.ar },
  { label: "code point (before)", collation: null },
];
const SORTS = [
  ...["first_name", "last_name", "branch_name", "country_name"].flatMap((c) => [c, `-${c}`].map((sort) => ({ list: "subscribers", sort }))),
  ...["name", "-name"].map((sort) => ({ list: "branches", sort })),
];

/** The list's first page in `collation`; null: the same statement in code-point order (its COLLATE removed). */
function firstPage(list: string, sort: string, collation: SortCollation | null): Statement {
  const c = collation ?? "und-x-icu";
  const statement =
    list === "subscribers"
      ? subscriberListSql(EVERY, subscriberFiltersSchema.parse({ sort }), undefined, undefined, c).rows
      : branchListSql(EVERY, branchFiltersSchema.parse({ sort }), undefined, c).rows;
  if (collation) return statement;
  // Before: the country sort read j.name (countries_name_key), the others the same expressions.
  let text = statement.text.replace(/ COLLATE "[^"]+"/g, "");
  if (sort.endsWith("country_name")) text = text.replace(/lower\(j\.name\)/g, "j.name");
  return { ...statement, text, values: statement.values } as Statement;
}

/** A plan's key lines: its scans, sorts and limits, the first Buffers line (the statement's), its times. */
const KEY = /Limit|Index|Seq Scan|Sort Key|Sort Method|Incremental Sort|Nested Loop|Merge Append|Append|Execution Time|Planning Time|Presorted Key/;
const keyLines = (plan: string[]) => plan.filter((l, i) => KEY.test(l) || (l.includes("Buffers:") && !plan.slice(0, i).some((p) => p.includes("Buffers:"))));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

runScript(async () => {
  const { values } = parseArgs({
    options: { database: { type: "string", default: "console_bench" }, runs: { type: "string", default: "15" }, out: { type: "string", default: "bench/results/collation-sorts.md" } },
  });
  const runs = Number(values.runs);
  const url = benchDatabaseUrl(config().DATABASE_URL ?? DEFAULT_SERVER, values.database);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [{ n }] = (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM subscribers")).rows as [{ n: number }];
    const [{ v }] = (await client.query<{ v: string }>("SELECT version() AS v")).rows as [{ v: string }];
    const lines: string[] = [];
    const table: string[] = [
      `| list | sort | order | indexes the plan reads | reads a table whole | execution, median of ${runs} (ms) | slowest (ms) |`,
      "|---|---|---|---|---|---|---|",
    ];
    const executions = async (text: string, q: Statement) => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const [row] = (await client.query<{ "QUERY PLAN": [{ "Execution Time": number }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, q.values)).rows;
        times.push(row!["QUERY PLAN"][0]["Execution Time"]);
      }
      return times;
    };
    for (const { list, sort } of SORTS) {
      for (const order of ORDERS) {
        const q = firstPage(list, sort, order.collation);
        for (let i = 0; i < 2; i++) await client.query(q.text, q.values);
        const times = await executions(q.text, q);
        const plan = (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.values)).rows.map((r) => r["QUERY PLAN"]);
        const indexes = [...new Set(plan.flatMap((l) => [...l.matchAll(/using (\w+)/gi)].map((m) => m[1]!)))];
        const whole = [...new Set(plan.flatMap((l) => [...l.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!)))];
        table.push(
          `| ${list} | \`${sort}\` | ${order.label} | ${indexes.join(", ") || "none"} | ${whole.join(", ") || "none"} | ${median(times).toFixed(3)} | ${Math.max(...times).toFixed(3)} |`,
        );
        lines.push(`### ${list} \`sort=${sort}\`, ${order.label}`, "", "```", ...keyLines(plan), "```", "");
        console.log(`${list} ${sort} ${order.label}: ${indexes.join(", ")} ${median(times).toFixed(3)} ms`);
      }
    }
    // The branch list: a bench's few dozen branches are read whole; with sequential scans off, the plan shows the index that serves it at scale.
    await client.query("SET enable_seqscan = off");
    for (const order of ORDERS.filter((o) => o.collation)) {
      const q = firstPage("branches", "name", order.collation);
      const plan = (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.values)).rows.map((r) => r["QUERY PLAN"]);
      lines.push(`### branches \`sort=name\`, ${order.label}, with enable_seqscan off (the index for many branches)`, "", "```", ...keyLines(plan), "```", "");
    }
    await client.query("RESET enable_seqscan");
    const out = [
      "# Name sorts by language at a million rows",
      "",
      `${n.toLocaleString("en-GB")} subscribers, ${v.split(" on ")[0]}, ${os.cpus().length} cores (shared with other work), ${new Date().toISOString().slice(0, 16)}Z.`,
      "Repeat: `npm run db:bulk -- --subscribers 1000000 && npm run bench:collation` (docs/sorting-by-language.md).",
      "The first page (10 rows) of each sort, as the lists send it; \"code point (before)\" is the statement the list sent before names followed the",
      "language (the same statement without its COLLATE; the country sort on `j.name`). Times are PostgreSQL's execution times (EXPLAIN ANALYZE), on a shared, loaded machine.",
      "",
      ...table,
      "",
      "## Plans (key lines of EXPLAIN (ANALYZE, BUFFERS): scans, sorts, limits, the first Buffers line, times)",
      "",
      ...lines,
    ];
    fs.mkdirSync(path.dirname(values.out), { recursive: true });
    fs.writeFileSync(values.out, out.join("\n"));
    console.log(`› Wrote ${values.out}`);
  } finally {
    await client.end();
  }
});
