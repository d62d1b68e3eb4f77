// A JSON Schema of the document as people read it: a type in words, an object's members as a
// nested list, a reference as a link to its section below. The words around the document's own
// (its descriptions, names and types) are the reader's language.

import { useTranslations } from "next-intl";

/** The members of a JSON Schema (2020-12, as OpenAPI 3.1 has it) this page shows. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema;
};
export type Schema = JsonSchema | boolean;
type Ref = JsonSchema & { $ref: string };

export const schemaAnchor = (ref: string) => `schema-${ref.split("/").at(-1)}`;
const refName = (ref: string) => ref.split("/").at(-1) ?? ref;

function isRef(schema: Schema): schema is Ref {
  return typeof schema === "object" && schema.$ref !== undefined;
}

/** Constraints worth a reader's eye: formats, lengths, ranges, patterns, allowed values. */
type Words = ReturnType<typeof useTranslations<"apiDocs">>;

function constraints(s: JsonSchema, t: Words): string[] {
  const out: string[] = [];
  if (s.format) out.push(s.format);
  if (s.enum) out.push(t("oneOf", { values: s.enum.map((v) => JSON.stringify(v)).join(", ") }));
  if (s.const !== undefined) out.push(t("exactly", { value: JSON.stringify(s.const) }));
  if (s.minLength !== undefined) out.push(t("atLeast", { min: s.minLength }));
  if (s.maxLength !== undefined) out.push(t("atMost", { max: s.maxLength }));
  // zod states every integer's safe range: true, and noise to a reader.
  if (s.minimum !== undefined && s.minimum > Number.MIN_SAFE_INTEGER) out.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) out.push(`≤ ${s.maximum}`);
  if (s.pattern && !s.format) out.push(t("matches", { pattern: s.pattern }));
  return out;
}

/** One line naming a schema's type: `string (date-time) or null`, `array of Branch`. */
export function TypeLabel({ schema }: { schema: Schema }) {
  const t = useTranslations("apiDocs");
  if (typeof schema === "boolean") return <span className="font-mono">{schema ? t("any") : t("nothing")}</span>;
  if (isRef(schema)) return <a href={`#${schemaAnchor(schema.$ref)}`} className="font-mono text-sky-800 underline">{refName(schema.$ref)}</a>;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    return (
      <>
        {alternatives.map((alt, i) => (
          <span key={i}>
            {i > 0 && t("or")}
            <TypeLabel schema={alt} />
          </span>
        ))}
      </>
    );
  }
  const types = [schema.type ?? (schema.properties ? "object" : "any")].flat();
  const notes = constraints(schema, t);
  return (
    <>
      {types.map((type, i) => (
        <span key={type}>
          {i > 0 && t("or")}
          {type === "array" && schema.items ? (
            t.rich("arrayOf", { type: () => <TypeLabel schema={schema.items!} /> })
          ) : type === "object" && typeof schema.additionalProperties === "object" && !schema.properties ? (
            t.rich("eachValue", {
              object: () => <span className="font-mono">object</span>,
              type: () => <TypeLabel schema={schema.additionalProperties as Schema} />,
            })
          ) : (
            <span className="font-mono">{type}</span>
          )}
        </span>
      ))}
      {notes.length > 0 && <span className="text-slate-600"> {t("notes", { notes: notes.join(t("noteSeparator")) })}</span>}
    </>
  );
}

/** The object whose members a member's line shows beneath it: its own, or its array items'. */
function nested(member: Schema): JsonSchema | null {
  if (typeof member !== "object" || isRef(member)) return null;
  if (member.properties) return member;
  const items = member.items;
  return typeof items === "object" && !isRef(items) && items.properties ? items : null;
}

/** A schema: its type, its description, and an object's members one per line, nested. */
export function SchemaView({ schema }: { schema: Schema }) {
  const t = useTranslations("apiDocs");
  if (typeof schema === "boolean" || isRef(schema) || !schema.properties) {
    return (
      <p className="text-sm">
        <TypeLabel schema={schema} />
        {typeof schema === "object" && !isRef(schema) && schema.description && <span className="text-slate-700"> — {schema.description}</span>}
      </p>
    );
  }
  const required = new Set(schema.required ?? []);
  return (
    <ul className="space-y-1 text-sm">
      {Object.entries(schema.properties).map(([name, member]) => (
        <li key={name}>
          <code className="font-semibold">{name}</code>
          {required.has(name) ? "" : <span className="text-slate-600"> {t("optional")}</span>}: <TypeLabel schema={member} />
          {typeof member === "object" && !isRef(member) && member.description && <span className="text-slate-700"> — {member.description}</span>}
          {nested(member) && (
            <div className="ms-5 mt-1 border-s border-slate-200 ps-3">
              <SchemaView schema={nested(member)!} />
            </div>
          )}
        </li>
      ))}
      {schema.additionalProperties === false ? null : schema.additionalProperties !== undefined && <li className="text-slate-600">{t("otherMembers")}</li>}
    </ul>
  );
}

/** Text with `code` spans and **bold** (what the document's descriptions use of Markdown). */
export function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part, i) =>
        part.startsWith("`") ? <code key={i}>{part.slice(1, -1)}</code> : part.startsWith("**") ? <strong key={i}>{part.slice(2, -2)}</strong> : part,
      )}
    </>
  );
}
