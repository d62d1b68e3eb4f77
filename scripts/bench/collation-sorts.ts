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
    const table: string[] = ["| list | sort | order | indexes in the plan | plan's execution (ms) | median of " + runs + " runs (ms) |", "|---|---|---|---|---|---|"];
    for (const { list, sort } of SORTS) {
      for (const order of ORDERS) {
        const q = firstPage(list, sort, order.collation);
        for (let i = 0; i < 2; i++) await client.query(q.text, q.values);
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t = process.hrtime.bigint();
          await client.query(q.text, q.values);
          times.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        const plan = (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.values)).rows.map((r) => r["QUERY PLAN"]);
        const indexes = [...new Set(plan.flatMap((l) => [...l.matchAll(/using (\w+)/gi)].map((m) => m[1]!)))];
        const seq = plan.filter((l) => /Seq Scan|Sort Method: (external|top-N heapsort)/.test(l)).map((l) => l.trim().replace(/\s+\(.*$/, ""));
        const exec = /Execution Time: ([\d.]+)/.exec(plan.join("\n"))?.[1] ?? "?";
        table.push(`| ${list} | \`${sort}\` | ${order.label} | ${indexes.join(", ") || "none (a table this small is read whole)"}${seq.length ? ` (also: ${seq.join("; ")})` : ""} | ${exec} | ${median(times).toFixed(2)} |`);
        lines.push(`### ${list} \`sort=${sort}\`, ${order.label}`, "", "```", ...plan.filter((l) => /Limit|Scan|Sort|Nested|Merge|Append|Execution|Buffers: shared/.test(l)).slice(0, 24), "```", "");
        console.log(`${list} ${sort} ${order.label}: ${indexes.join(", ")} ${median(times).toFixed(2)} ms`);
      }
    }
    const out = [
      "# Name sorts by language at a million rows",
      "",
      `${n.toLocaleString("en-GB")} subscribers, ${v.split(" on ")[0]}, ${os.cpus().length} cores (shared with other work), ${new Date().toISOString().slice(0, 16)}Z.`,
      "Repeat: `npm run db:bulk -- --subscribers 1000000 && npm run bench:collation` (docs/sorting-by-language.md).",
      "The first page (50 rows) of each sort, as the lists send it; \"code point\" is the same statement without its COLLATE, the order before sorting followed the language.",
      "",
      ...table,
      "",
      "## Plans (key lines of EXPLAIN (ANALYZE, BUFFERS))",
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
