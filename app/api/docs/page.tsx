import type { Metadata } from "next";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { servedDocument } from "@/lib/openapi/served";
import { Prose, SchemaView, schemaAnchor, TypeLabel, type Schema } from "./schema-view";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("apiDocs"))("title") };
}

// The OpenAPI document (lib/openapi/document.ts) as a page, rendered on the server: no script, so
// nothing to fit into the CSP, and nothing that could differ from /api/v1/openapi.json.

const METHODS = ["get", "post", "patch", "put", "delete"] as const;
const METHOD_COLOURS: Record<string, string> = {
  get: "bg-sky-100 text-sky-900",
  post: "bg-emerald-100 text-emerald-900",
  patch: "bg-amber-100 text-amber-900",
  put: "bg-amber-100 text-amber-900",
  delete: "bg-red-100 text-red-900",
};

// The document as JSON, with the members this page reads.
type Content = Record<string, { schema?: Schema }>;
type Responses = Record<string, { $ref?: string; description?: string; content?: Content }>;
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { required?: boolean; content: Content };
  responses?: Responses;
};
type Document = {
  openapi: string;
  info: { title: string; description?: string };
  tags?: { name: string }[];
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components?: { schemas?: Record<string, Schema>; responses?: Responses; securitySchemes?: Record<string, { description?: string }> };
};
type Entry = { method: string; path: string; op: Operation };

const anchor = (e: Entry) => `${e.method}-${e.path}`.replace(/[^A-Za-z0-9]+/g, "-");

function entries(document: Document): Entry[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [{ method, path, op }] : [];
    }),
  );
}

/** A body's schema per media type. */
function Media({ content }: { content: Content }) {
  return Object.entries(content).map(([type, media]) => (
    <div key={type} className="mt-1">
      <p className="text-sm text-slate-600">{type}</p>
      {media.schema && <SchemaView schema={media.schema} />}
    </div>
  ));
}

function Answers({ responses, shared }: { responses: Responses; shared: Responses }) {
  const t = useTranslations("apiDocs");
  return (
    <dl className="space-y-2">
      {Object.entries(responses).map(([status, response]) => (
        <div key={status} className="flex gap-3">
          <dt className="w-12 shrink-0 font-mono text-sm font-semibold">{status}</dt>
          <dd className="min-w-0 flex-1 text-sm">
            {response.$ref ? (
              <>
                <Prose text={shared[response.$ref.split("/").at(-1)!]?.description ?? ""} />{" "}
                <a href="#schema-Error" className="text-sky-800 underline">
                  {t("error")}
                </a>
              </>
            ) : (
              <>
                {response.description}
                <Media content={response.content ?? {}} />
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

// An operation or a record is an article, not a region: the landmarks a screen reader lists stay
// the page's few sections, each named once (a tag and a record may share a name).
function OperationView({ entry, shared }: { entry: Entry; shared: Responses }) {
  const { op, method, path } = entry;
  const parameters = op.parameters ?? [];
  const body = op.requestBody;
  const t = useTranslations("apiDocs");
  return (
    <article id={anchor(entry)} aria-labelledby={`${anchor(entry)}-title`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h3 id={`${anchor(entry)}-title`} className="flex flex-wrap items-baseline gap-2">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${METHOD_COLOURS[method]}`}>{method}</span>
        <code className="font-semibold [overflow-wrap:anywhere]">{path}</code>
        <span className="text-slate-700">{op.summary}</span>
      </h3>
      {op.description && (
        <div className="mt-2 space-y-1 text-sm text-slate-800">
          {op.description.split("\n\n").map((paragraph, i) => (
            <p key={i}>
              <Prose text={paragraph} />
            </p>
          ))}
        </div>
      )}
      {parameters.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="text-start text-xs font-semibold uppercase tracking-wide text-slate-600">{t("parameters")}</caption>
            <thead className="text-start text-xs text-slate-600">
              <tr>
                <th scope="col" className="py-1 pe-3">{t("name")}</th>
                <th scope="col" className="py-1 pe-3">{t("in")}</th>
                <th scope="col" className="py-1">{t("type")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`}>
                  <td className="py-1 pe-3 font-mono">
                    {p.name}
                    {p.required && <span className="text-slate-600"> {t("required")}</span>}
                  </td>
                  <td className="py-1 pe-3">{p.in}</td>
                  <td className="py-1 [overflow-wrap:anywhere]">{p.schema && <TypeLabel schema={p.schema} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {body && (
        <div className="mt-3">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{body.required ? t("body") : t("bodyOptional")}</h4>
          <Media content={body.content} />
        </div>
      )}
      <div className="mt-3">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{t("answers")}</h4>
        <Answers responses={op.responses ?? {}} shared={shared} />
      </div>
    </article>
  );
}

export default async function ApiDocsPage() {
  const t = await getTranslations("apiDocs");
  const document = servedDocument() as Document;
  const all = entries(document);
  const tags = (document.tags ?? []).map((t) => t.name);
  const schemes = Object.entries(document.components?.securitySchemes ?? {});
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <p className="mb-3 text-sm">
        <Link href="/subscribers" className="text-sky-800 underline">
          <span className="inline-block rtl:rotate-180">←</span>{" "}
          {t("back")}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold tracking-tight" translate="no">{document.info.title}</h1>
      {/* The document's own words stay as written (docs/API.md): its direction is theirs, and no translation touches them. */}
      <p className="mt-2 text-sm text-slate-700" dir="auto" translate="no">
        <Prose text={document.info.description ?? ""} />
      </p>
      <p className="mt-1 text-sm text-slate-700">
        {t.rich("machineReadable", {
          version: document.openapi,
          link: (chunks) => (
            <a href="/api/v1/openapi.json" className="text-sky-800 underline" dir="ltr">
              {chunks}
            </a>
          ),
          bdi: (chunks) => <bdi dir="ltr">{chunks}</bdi>,
        })}
      </p>
      <nav aria-label={t("operations")} className="mt-6">
        <ul className="columns-1 gap-6 text-sm [overflow-wrap:anywhere] sm:columns-2">
          {all.map((e) => (
            <li key={anchor(e)}>
              <a href={`#${anchor(e)}`} className="text-sky-800 underline">
                <span className="font-mono uppercase" translate="no">{e.method}</span> <span className="font-mono">{e.path}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="auth-heading" className="mt-8">
        <h2 id="auth-heading" className="text-lg font-semibold">{t("signingIn")}</h2>
        <dl className="mt-2 space-y-2 text-sm">
          {schemes.map(([name, scheme]) => (
            <div key={name} translate="no">
              <dt className="font-mono font-semibold">{name}</dt>
              <dd>
                <Prose text={scheme.description ?? ""} />
              </dd>
            </div>
          ))}
        </dl>
      </section>
      {tags.map((tag) => (
        <section translate="no" key={tag} aria-labelledby={`tag-${tag}`} className="mt-8">
          <h2 id={`tag-${tag}`} className="text-lg font-semibold">{tag}</h2>
          <div className="mt-3 space-y-4">
            {all
              .filter((e) => e.op.tags?.includes(tag))
              .map((e) => (
                <OperationView key={anchor(e)} entry={e} shared={document.components?.responses ?? {}} />
              ))}
          </div>
        </section>
      ))}
      <section translate="no" aria-labelledby="schemas-heading" className="mt-8">
        <h2 id="schemas-heading" className="text-lg font-semibold">{t("records")}</h2>
        <div className="mt-3 space-y-4">
          {Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => (
            <article key={name} id={schemaAnchor(name)} aria-labelledby={`${schemaAnchor(name)}-title`} className="rounded-lg border border-slate-200 bg-white p-4">
              <h3 id={`${schemaAnchor(name)}-title`} className="font-mono font-semibold">{name}</h3>
              <div className="mt-2">
                <SchemaView schema={schema} />
              </div>
            </article>
          ))}
        </div>
      </section>
    </main>
  );
}
