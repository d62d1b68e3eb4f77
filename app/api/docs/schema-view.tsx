// A JSON Schema of the document as people read it: a type in words, an object's members as a
// nested list, a reference as a link to its section below.

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
function constraints(s: JsonSchema): string[] {
  const out: string[] = [];
  if (s.format) out.push(s.format);
  if (s.enum) out.push(`one of ${s.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  if (s.const !== undefined) out.push(`exactly ${JSON.stringify(s.const)}`);
  if (s.minLength !== undefined) out.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) out.push(`at most ${s.maxLength} characters`);
  // zod states every integer's safe range: true, and noise to a reader.
  if (s.minimum !== undefined && s.minimum > Number.MIN_SAFE_INTEGER) out.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) out.push(`≤ ${s.maximum}`);
  if (s.pattern && !s.format) out.push(`matches ${s.pattern}`);
  return out;
}

/** One line naming a schema's type: `string (date-time) or null`, `array of Branch`. */
export function TypeLabel({ schema }: { schema: Schema }) {
  if (typeof schema === "boolean") return <span className="font-mono">{schema ? "any" : "nothing"}</span>;
  if (isRef(schema)) return <a href={`#${schemaAnchor(schema.$ref)}`} className="font-mono text-sky-800 underline">{refName(schema.$ref)}</a>;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    return (
      <>
        {alternatives.map((alt, i) => (
          <span key={i}>
            {i > 0 && " or "}
            <TypeLabel schema={alt} />
          </span>
        ))}
      </>
    );
  }
  const types = [schema.type ?? (schema.properties ? "object" : "any")].flat();
  const notes = constraints(schema);
  return (
    <>
      {types.map((t, i) => (
        <span key={t}>
          {i > 0 && " or "}
          {t === "array" && schema.items ? (
            <>
              array of <TypeLabel schema={schema.items} />
            </>
          ) : t === "object" && typeof schema.additionalProperties === "object" && !schema.properties ? (
            <>
              <span className="font-mono">object</span>, each value <TypeLabel schema={schema.additionalProperties} />
            </>
          ) : (
            <span className="font-mono">{t}</span>
          )}
        </span>
      ))}
      {notes.length > 0 && <span className="text-slate-600"> ({notes.join("; ")})</span>}
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
          {required.has(name) ? "" : <span className="text-slate-600"> (optional)</span>}: <TypeLabel schema={member} />
          {typeof member === "object" && !isRef(member) && member.description && <span className="text-slate-700"> — {member.description}</span>}
          {nested(member) && (
            <div className="ms-5 mt-1 border-s border-slate-200 ps-3">
              <SchemaView schema={nested(member)!} />
            </div>
          )}
        </li>
      ))}
      {schema.additionalProperties === false ? null : schema.additionalProperties !== undefined && <li className="text-slate-600">Other members allowed.</li>}
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
