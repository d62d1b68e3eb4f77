import crypto from "node:crypto";
import { z } from "zod";

/** 128 random bits in base64url: ids of exports (and their file names), imports and bulk changes. */
export const newJobId = (): string => crypto.randomBytes(16).toString("base64url");

const ID = /^[A-Za-z0-9_-]{22}$/;

/** An export's or import's `{id}` in an API path, for the OpenAPI document (anything else: 404). */
export const jobIdPathParams = z.object({ id: z.string().regex(ID).meta({ description: "The job's id, as its status names it." }) });

/** Only ids of our own shape ever reach the file system or the database. */
export const isJobId = (value: unknown): value is string => typeof value === "string" && ID.test(value);
