import createClient from "openapi-fetch";
import type { paths } from "./api";

// docs/people-and-tokens.md's token script (list, request an export, poll it, download the
// file), in TypeScript with a client generated from /api/v1/openapi.json: the types come from
// `npx openapi-typescript <console>/api/v1/openapi.json -o api.d.ts` (here: npm run openapi:types).

export async function exportWithToken(base: string, token: string) {
  const api = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${token}` } });

  // List subscribers (any filter of docs/API.md)
  const list = await api.GET("/api/v1/subscribers", { params: { query: { page: "1" } } });
  if (!list.data) throw new Error(`listing failed: ${list.error?.error.message}`);

  // Request an export of the subscribers matching the filters of the query string (202)
  const requested = await api.POST("/api/v1/subscribers/export", { params: { query: { subscription_status: "active" } } });
  if (!requested.data) throw new Error(`the export was refused: ${requested.error?.error.message}`);

  // Poll its status until the file is ready (up to two minutes)
  let status = requested.data;
  for (let i = 0; i < 60 && status.downloadable_file_status !== "completed"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const polled = await api.GET("/api/v1/subscribers/export");
    if (!polled.data) throw new Error(`reading the status failed: ${polled.error?.error.message}`);
    status = polled.data;
  }
  if (status.downloadable_file_status !== "completed" || !status.downloadable_file) throw new Error("the export did not complete in time");

  // Download the file it names
  const id = status.downloadable_file.split("/").at(-2)!;
  const file = await api.GET("/api/v1/exports/{id}/download", { params: { path: { id } }, parseAs: "text" });
  if (file.data === undefined) throw new Error("the download failed");
  return { list: list.data, csv: file.data, filename: status.file?.filename };
}
