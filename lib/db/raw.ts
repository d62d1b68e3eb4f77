import pg from "pg";
import { Prisma } from "@/lib/generated/prisma/client";

// Raw statements on PostgreSQL sent straight to the pool that Prisma's adapter uses, with the
// values Prisma's `$queryRaw` would give. The console's raw reads (`query()` in lib/db/sql.ts)
// run on every request (the session's user, a list's rows and total, the export's status), and
// `$queryRaw` spends ~0.14 ms of CPU on each before and after the driver (its query plan and
// result mapping; measured in bench/README.md): a third of a JSON list answer's own work. Same
// pool, same connections, so the same statement timeout and cancellation (lib/db/pool.ts); only
// statements outside a Prisma transaction come here (`within(tx)` keeps Prisma's).
//
// Values read are what `$queryRaw` returns (tests/integration/raw-query.test.ts compares the two
// column type by column type): int8 and oid as BigInt, numeric as Prisma.Decimal, date, time and
// timestamps as Date (UTC), json as parsed JSON, bytea as Uint8Array, arrays of these element by
// element, enums and other types of the schema as text. A column of any other built-in type
// (interval, inet…) is refused, as `$queryRaw` refuses it: cast it to text.

/** PostgreSQL's first OID for objects made by a schema (enums, domains): read as text. */
const FIRST_NORMAL_OBJECT_ID = 16384;

type Parser = (text: string) => unknown;

const { types } = pg;
const text: Parser = (v) => v;
const bigint: Parser = (v) => BigInt(v);
const float: Parser = (v) => Number.parseFloat(v);
const int: Parser = (v) => Number.parseInt(v, 10);
const bool: Parser = (v) => v === "t";
const decimal: Parser = (v) => new Prisma.Decimal(v);
const date: Parser = (v) => new Date(`${v}T00:00:00Z`);
const time: Parser = (v) => new Date(`1970-01-01T${v}Z`);
const timestamp: Parser = (v) => new Date(`${v.replace(" ", "T")}Z`);
// In the session's time zone, with its offset (`+00`, `+05:30`): the same instant whatever it is.
const timestamptz: Parser = (v) => new Date(v.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00"));
const json: Parser = (v) => JSON.parse(v);
const bytea = types.getTypeParser(types.builtins.BYTEA, "text") as (v: string) => Buffer;
const bytes: Parser = (v) => new Uint8Array(bytea(v));

/** Built-in types by OID: scalars, then their arrays (pg's array parser, element by element). */
const SCALARS: Record<number, Parser> = {
  16: bool,
  17: bytes,
  18: text, // "char"
  19: text, // name
  20: bigint,
  21: int,
  23: int,
  25: text,
  26: bigint, // oid
  114: json,
  700: float,
  701: float,
  1042: text, // char(n)
  1043: text, // varchar
  1082: date,
  1083: time,
  1114: timestamp,
  1184: timestamptz,
  1700: decimal,
  2950: text, // uuid
  3802: json,
};

const ARRAYS: Record<number, number> = {
  1000: 16,
  1001: 17,
  1002: 18,
  1003: 19,
  1005: 21,
  1007: 23,
  1009: 25,
  1014: 1042,
  1015: 1043,
  1016: 20,
  1021: 700,
  1022: 701,
  1028: 26,
  1115: 1114,
  1182: 1082,
  1183: 1083,
  1185: 1184,
  1231: 1700,
  2951: 2950,
  199: 114,
  3807: 3802,
};

// pg's parser of text[] (OID 1009, no enum name for it in pg's types) splits any array literal into its elements' text.
const parseArray = (types.getTypeParser as (oid: number, format: "text") => unknown)(1009, "text") as (v: string) => (string | null)[];
const arrayOf = (element: Parser): Parser => {
  const each = (values: unknown[]): unknown[] => values.map((x) => (x === null ? null : Array.isArray(x) ? each(x) : element(x as string)));
  return (v) => each(parseArray(v));
};

const UNSUPPORTED = Symbol("unsupported column type");
const unsupported: Parser = () => UNSUPPORTED;

const parsers = new Map<number, Parser>();
function parserFor(oid: number): Parser {
  let parser = parsers.get(oid);
  if (!parser) {
    const element = ARRAYS[oid];
    parser = SCALARS[oid] ?? (element !== undefined ? arrayOf(SCALARS[element]!) : oid >= FIRST_NORMAL_OBJECT_ID ? text : unsupported);
    parsers.set(oid, parser);
  }
  return parser;
}

const TYPES = { getTypeParser: (oid: number) => parserFor(oid) };

/** A value as `$queryRaw` sends it: a Date as its UTC instant (a timestamp without time zone takes its UTC wall time). */
function argument(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Prisma.Decimal) return value.toString();
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(argument);
  return value;
}

type Row = Record<string, unknown>;

/** Runs `statement` on `pool` and returns its rows as `$queryRaw` would. */
export async function rawQuery<T = Row>(pool: pg.Pool, statement: Prisma.Sql | string): Promise<T[]> {
  const config: pg.QueryConfig =
    typeof statement === "string" ? { text: statement, types: TYPES } : { text: statement.text, values: statement.values.map(argument), types: TYPES };
  const result = await pool.query(config);
  if (Array.isArray(result)) throw new Error("Send one statement at a time.");
  for (const field of result.fields ?? []) {
    if (parserFor(field.dataTypeID) === unsupported) {
      throw new Error(`Column "${field.name}" has a type (OID ${field.dataTypeID}) that raw reads do not convert: cast it in the statement (::text).`);
    }
  }
  return result.rows as T[];
}
