import crypto from "node:crypto";

/** 128 random bits, base64url (22 characters): export ids, and so the files' names. */
export function newExportId(): string {
  return crypto.randomBytes(16).toString("base64url");
}

const ID = /^[A-Za-z0-9_-]{22}$/;

/** Only ids of our own shape ever reach the file system or the database. */
export function isExportId(value: unknown): value is string {
  return typeof value === "string" && ID.test(value);
}

/** The `downloadable_file` of an export: the path of its download route. */
export const downloadPath = (id: string) => `/api/v1/exports/${id}/download`;
