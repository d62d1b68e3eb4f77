import fs from "node:fs";
import path from "node:path";

// Expand and contract (docs/decisions/0044-expand-and-contract.md): a release's migrations only
// add, so that the previous release's code, still serving during a rolling upgrade, runs on the
// new schema; what it reads is removed one release later, in a migration marked as a contract
// step that names what it removes. This reads the migrations' SQL for the statements that break
// running code; it is a lint, not a parser: comments and string literals are blanked first.

/** The last migration written before the rule: those up to it are history, not checked. */
export const RULE_SINCE = "20261129113201_export_sort_and_ids";

/** `-- contract: table.column, other_table` at the start of a line: what this step removes. */
const CONTRACT_MARK = /^--\s*contract:\s*(.+)$/im;

export type Problem = { migration: string; statement: string; why: string };

/** The SQL with comments and quoted strings blanked, so that a word inside them matches nothing. */
function codeOnly(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\$([A-Za-z_]*)\$[\s\S]*?\$\1\$/g, " ")
    .replace(/'(?:[^']|'')*'/g, "''");
}

const ident = String.raw`(?:"[^"]+"|[A-Za-z_][A-Za-z0-9_$]*)`;
const qualified = String.raw`(?:${ident}\.)?(${ident})`;
const bare = (name: string) => name.replace(/^"|"$/g, "");

/** What a migration removes or renames (table, or table.column), and what else breaks running code. */
export function checkMigration(name: string, sql: string): { problems: Problem[]; removes: string[]; marked: string[] } {
  const marked = (CONTRACT_MARK.exec(sql)?.[1] ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const statements = codeOnly(sql)
    .split(";")
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  const created = new Set<string>();
  const problems: Problem[] = [];
  const removes: string[] = [];
  const refuse = (statement: string, why: string) => problems.push({ migration: name, statement: statement.slice(0, 160), why });
  const removed = (statement: string, object: string, what: string) => {
    removes.push(object);
    if (!marked.includes(object.toLowerCase())) {
      refuse(statement, `${what} ${object}: the previous release's code may still read it. Stop reading it in one release, remove it in the next, in a migration marked \`-- contract: ${object}\``);
    }
  };

  for (const statement of statements) {
    let m: RegExpExecArray | null;
    if ((m = new RegExp(String.raw`^CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?${qualified}`, "i").exec(statement))) {
      created.add(bare(m[1]!).toLowerCase());
      continue;
    }
    if ((m = new RegExp(String.raw`^DROP TABLE (?:IF EXISTS )?${qualified}`, "i").exec(statement))) {
      removed(statement, bare(m[1]!), "drops the table");
      continue;
    }
    if ((m = new RegExp(String.raw`^CREATE (?:UNIQUE )?INDEX (CONCURRENTLY )?(?:IF NOT EXISTS )?(?:${ident} )?ON (?:ONLY )?${qualified}`, "i").exec(statement))) {
      const table = bare(m[2]!).toLowerCase();
      if (!m[1] && !created.has(table)) {
        refuse(statement, `builds an index on ${table} without CONCURRENTLY: the table is locked against writes while it builds. Use CREATE INDEX CONCURRENTLY, alone in its migration (it cannot run inside a transaction)`);
      } else if (m[1] && statements.length > 1) {
        refuse(statement, "CREATE INDEX CONCURRENTLY must be alone in its migration: PostgreSQL runs several statements sent together as one transaction, where it cannot run");
      }
      continue;
    }
    if ((m = new RegExp(String.raw`^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?${qualified} (.*)$`, "i").exec(statement))) {
      const table = bare(m[1]!);
      if (created.has(table.toLowerCase())) continue; // new in this migration: no running code reads it
      const rest = m[2]!;
      let r: RegExpExecArray | null;
      if ((r = new RegExp(String.raw`^RENAME TO ${ident}`, "i").exec(rest))) removed(statement, table, "renames the table");
      else if ((r = new RegExp(String.raw`^RENAME (?:COLUMN )?(${ident}) TO`, "i").exec(rest))) removed(statement, `${table}.${bare(r[1]!)}`, "renames the column");
      for (const part of rest.split(/,(?![^(]*\))/)) {
        const p = part.trim();
        if ((r = new RegExp(String.raw`^DROP (?:COLUMN )?(?:IF EXISTS )?(${ident})`, "i").exec(p)) && !/^DROP (CONSTRAINT|DEFAULT|NOT NULL)/i.test(p)) {
          removed(statement, `${table}.${bare(r[1]!)}`, "drops the column");
        } else if ((r = new RegExp(String.raw`^ALTER (?:COLUMN )?(${ident}) (?:SET DATA )?TYPE`, "i").exec(p))) {
          removed(statement, `${table}.${bare(r[1]!)}`, "changes the type of");
        } else if ((r = new RegExp(String.raw`^ALTER (?:COLUMN )?(${ident}) SET NOT NULL`, "i").exec(p))) {
          refuse(statement, `makes ${table}.${bare(r[1]!)} NOT NULL: the previous release's code may still write rows without it. Make it NOT NULL one release after the code that always writes it`);
        } else if ((r = new RegExp(String.raw`^ADD (?:COLUMN )?(?:IF NOT EXISTS )?(${ident}) (.*)$`, "i").exec(p)) && /\bNOT NULL\b/i.test(r[2]!) && !/\bDEFAULT\b|\bGENERATED\b/i.test(r[2]!)) {
          refuse(statement, `adds ${table}.${bare(r[1]!)} NOT NULL without a default: the previous release's inserts, which do not know it, would fail`);
        }
      }
    }
  }
  return { problems, removes, marked };
}

/** Every migration after RULE_SINCE in `dir` (prisma/migrations), in order. */
export function checkMigrations(dir: string, since = RULE_SINCE) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name > since)
    .map((e) => e.name)
    .sort()
    .map((name) => ({ name, ...checkMigration(name, fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8")) }));
}

/**
 * The objects a contract step removes that the previous release's sources still name (a word
 * match of the column or table): `sources` maps each file of that release to its text.
 */
export function stillRead(removes: string[], sources: Map<string, string>): { object: string; file: string }[] {
  const found: { object: string; file: string }[] = [];
  for (const object of removes) {
    const word = object.split(".").pop()!;
    const pattern = new RegExp(String.raw`\b${word.replace(/[$]/g, "\\$")}\b`);
    for (const [file, text] of sources) {
      if (pattern.test(text)) {
        found.push({ object, file });
        break;
      }
    }
  }
  return found;
}
