import "server-only";
import { config } from "@/lib/config";
import { query, sql, type Queryable, type Statement } from "@/lib/db/sql";
import type { ExportFormat } from "./format";
import type { ExportStatusBody } from "./schema";

// A user's export status: the latest request, and the newest completed file, downloadable meanwhile and after a failure.

/** The `downloadable_file` of an export: the path of its download route. */
export const downloadPath = (id: string) => `/api/v1/exports/${id}/download`;

type ExportState = "in_queue" | "completed" | "failed";

export type { ExportStatusBody };

type ExportRow = {
  which: "latest" | "file";
  id: string;
  status: ExportState;
  format: ExportFormat;
  filters: unknown;
  sort: string | null;
  fresh: boolean;
  total_rows: number;
  processed_rows: number;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
};

const COLUMNS = sql`id, status::text AS status, format::text AS format, filters, sort, fresh, total_rows, processed_rows, error,
  created_at, started_at, completed_at`;

/** Every /subscribers page shows this: the latest request and the newest file in one statement. */
export function exportStatusSql(userId: number): Statement {
  return sql`
    (SELECT 'latest' AS which, ${COLUMNS} FROM subscriber_exports WHERE user_id = ${userId}
      ORDER BY created_at DESC, id ASC LIMIT 1)
    UNION ALL
    (SELECT 'file' AS which, ${COLUMNS} FROM subscriber_exports WHERE user_id = ${userId} AND status = 'completed'
      ORDER BY completed_at DESC, id ASC LIMIT 1)`;
}

/** `q`: a transaction's statements (the completing export's, for its webhook event). */
export async function exportStatus(userId: number, q?: Queryable): Promise<ExportStatusBody> {
  const rows = q ? await q.query<ExportRow>(exportStatusSql(userId)) : await query<ExportRow>(exportStatusSql(userId));
  const latest = rows.find((r) => r.which === "latest");
  const file = rows.find((r) => r.which === "file");
  const done = latest?.status === "completed";
  const progress = done ? 100 : latest && latest.total_rows > 0 ? Math.min(99, Math.floor((latest.processed_rows * 100) / latest.total_rows)) : 0;
  return {
    downloadable_file: file ? downloadPath(file.id) : null,
    downloadable_file_status: latest?.status ?? null,
    format: latest?.format ?? "csv",
    fresh_download_file: latest ? latest.fresh : true,
    progress,
    total_rows: latest?.total_rows ?? 0,
    processed_rows: latest?.processed_rows ?? 0,
    requested_at: latest?.created_at.toISOString() ?? null,
    started_at: latest?.started_at?.toISOString() ?? null,
    completed_at: latest?.completed_at?.toISOString() ?? null,
    error: latest?.error ?? null,
    filters: asStrings(latest?.filters),
    sort: latest?.sort ?? null,
    file:
      file && file.completed_at
        ? {
            rows: file.total_rows,
            completed_at: file.completed_at.toISOString(),
            filename: exportFilename(file.completed_at, undefined, file.format),
            format: file.format,
            filters: asStrings(file.filters),
            sort: file.sort,
          }
        : null,
  };
}

/** The status with its `error` in `words`: a problem key (an older row's English stays as it is) in the reader's language, the API's answer's, or a webhook's English. */
export function exportStatusInWords(status: ExportStatusBody, words: (text: string) => string): ExportStatusBody {
  return { ...status, error: status.error === null ? null : words(status.error) };
}

function asStrings(json: unknown): Record<string, string> {
  if (!json || typeof json !== "object" || Array.isArray(json)) return {};
  return Object.fromEntries(Object.entries(json).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** subscribers-YYYYMMDD-HHMM.csv (or .xlsx), from the completion time in the console's time zone. */
export function exportFilename(completedAt: Date, timeZone = config().CONSOLE_TIME_ZONE, format: ExportFormat = "csv"): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(completedAt);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "00";
  return `subscribers-${get("year")}${get("month")}${get("day")}-${get("hour")}${get("minute")}.${format}`;
}
