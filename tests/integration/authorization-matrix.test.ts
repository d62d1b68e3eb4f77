import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "@/lib/auth/permissions";
import { syncCountries } from "@/tools/seed/demo";
import { actAs } from "../helpers/db";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";
import { apiRequest, routeContext } from "../helpers/http";
import { createToken } from "@/lib/tokens/tokens";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import { GET as statusGET } from "@/app/api/v1/subscribers/imports/[id]/route";
import { GET as rejectedGET } from "@/app/api/v1/subscribers/imports/[id]/rejected/route";
import { connection, sql } from "@/lib/db/sql";
import { runImport } from "@/lib/imports/run";
import { trashSubscribers } from "@/lib/trash/subscribers";
import { requestBulkChange } from "@/lib/subscribers/bulk";
import { branchScope } from "@/lib/auth/scope";
import { transaction } from "@/lib/db/transaction";

// What next/headers gives the code: the headers of the caller's request (a token caller's carry
// `Authorization: Bearer …`, set by as() below), and no cookie jar (sign-out gets an empty one;
// who is signed in comes from actAs()).
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ cookies: async () => ({ has: () => false, get: () => undefined, set: () => {} }), headers: async () => request.headers }));

// Every page, route handler and server action, with what anonymous callers, staff, admins and
// API tokens (an administrator's `read` and `export` tokens, so only the scope limits them) get,
// called directly (not through the UI). A file or export missing from these tables fails the last
// tests, so a new route cannot ship without its row. Tokens work on the JSON API only: on pages
// and server actions a request with a token and no session is anonymous (its token is in the
// request's headers all the same, as next/headers gives them), so the token columns of pages and
// actions are the anonymous column; tests/http/bearer-elsewhere.test.ts checks that the built
// server answers them so (every page as to an anonymous visitor, every action 401).

// "scoped" is a staff member limited to one branch of their own: every {subscriber} and {branch}
// they are given is another branch's, so what staff get for it, they get as a 404 (an unknown id),
// and what they may do anyway is the same as staff (`scoped` is staff's answer unless named).
// The scope dimension: whatever the answer, every page, route and action the scoped member calls
// shows nothing of another branch (no other branch's name, no subscriber outside their branch)
// and changes nothing of one (docs/decisions/0037-scoped-sources.md).
type Person = "anonymous" | "staff" | "scoped" | "admin";
type TokenCaller = "read token" | "export token";
type Who = Person | TokenCaller;
type Outcome = "ok" | "login" | "redirect" | 401 | 403 | number;
type Expect = Record<Exclude<Person, "scoped">, Outcome> & { scoped?: Outcome };
type RouteExpect = Record<Exclude<Who, "scoped">, Outcome> & { scoped?: Outcome };
const answerOf = (e: Expect | RouteExpect, who: Who): Outcome => (who === "scoped" ? (e.scoped ?? e.staff) : (e as Record<string, Outcome>)[who]!);

const PEOPLE = ["anonymous", "staff", "scoped", "admin"] as const;
const CALLERS = [...PEOPLE, "read token", "export token"] as const;

const EVERYONE = (o: Outcome): Expect => ({ anonymous: o, staff: o, admin: o });
const ALL = (o: Outcome): RouteExpect => ({ ...EVERYONE(o), "read token": o, "export token": o });
const SIGNED_IN: Expect = { anonymous: "login", staff: "ok", admin: "ok" };
const ADMIN_PAGE: Expect = { anonymous: "login", staff: 403, admin: "ok" };
/** People's answers, and the two tokens'. */
const r = (people: Expect, read: Outcome, exp: Outcome = read): RouteExpect => ({ ...people, "read token": read, "export token": exp });

/** Pages: file under app/ → expected outcome. "login" = redirect to /login?callbackUrl=…. */
const PAGES: Record<string, Expect> = {
  "page.tsx": EVERYONE("redirect"), // / → /subscribers
  "login/page.tsx": { anonymous: "ok", staff: "redirect", admin: "redirect" },
  // Why a single sign-on was refused: public (the refused are not signed in), it names no account.
  "login/refused/page.tsx": EVERYONE("ok"),
  "(console)/subscribers/page.tsx": SIGNED_IN,
  "(console)/subscribers/new/page.tsx": SIGNED_IN,
  "(console)/subscribers/[id]/page.tsx": { ...SIGNED_IN, scoped: 404 },
  "(console)/subscribers/[id]/edit/page.tsx": { ...SIGNED_IN, scoped: 404 },
  // The bulk change's confirmation (it explains what is missing when nothing is chosen), and a
  // bulk change job's progress: its owner's only (anyone else, and a bad id: the 404 page).
  "(console)/subscribers/bulk/page.tsx": SIGNED_IN,
  "(console)/subscribers/columns/page.tsx": SIGNED_IN,
  // The duplicates review: anyone signed in (merging is an administrator's, past the page).
  "(console)/subscribers/duplicates/page.tsx": SIGNED_IN,
  // Merging is an administrator's (staff get the 403 page); without ids the page is the 404 page.
  "(console)/subscribers/duplicates/merge/page.tsx": { anonymous: "login", staff: 403, admin: 404 },
  // Imports: anyone signed in, like creation; an import's page is its owner's (else the 404 page).
  "(console)/subscribers/import/page.tsx": SIGNED_IN,
  // Another user's import (a preview): anyone but its owner gets the 404 page.
  "(console)/subscribers/import/[id]/page.tsx": { anonymous: "login", staff: 404, admin: 404 },
  "(console)/subscribers/bulk/[id]/page.tsx": { anonymous: "login", staff: 404, admin: 404 },
  "(console)/branches/page.tsx": SIGNED_IN,
  "(console)/branches/new/page.tsx": ADMIN_PAGE,
  "(console)/branches/[id]/edit/page.tsx": ADMIN_PAGE,
  "(console)/audit/page.tsx": ADMIN_PAGE,
  "(console)/users/page.tsx": ADMIN_PAGE,
  "(console)/users/new/page.tsx": ADMIN_PAGE,
  // The trash: administrators only (staff never see it).
  "(console)/trash/page.tsx": ADMIN_PAGE,
  "(console)/account/page.tsx": SIGNED_IN,
  // Outgoing webhooks: administrators only (an endpoint's page: its deliveries).
  "(console)/webhooks/page.tsx": ADMIN_PAGE,
  "(console)/webhooks/[id]/page.tsx": ADMIN_PAGE,
  // A list's saved views: the caller's own and the shared ones.
  "(console)/views/page.tsx": SIGNED_IN,
  // One's own changes (an administrator picks whose).
  "(console)/activity/page.tsx": SIGNED_IN,
  "(console)/account/two-factor/page.tsx": SIGNED_IN,
  // Whoever holds the link (an unknown link here: the page says so).
  "set-password/[token]/page.tsx": EVERYONE("ok"),
  // The OpenAPI document as a page: it needs no session, as the document does not.
  "api/docs/page.tsx": EVERYONE("ok"),
};

type Call = { method: string; path: string; params?: Record<string, string>; json?: unknown; form?: string; expect: RouteExpect };
/** Route handlers: file under app/ → each exported method with its expected HTTP status. */
const ROUTES: Record<string, Call[] | "next-auth"> = {
  // next-auth's sign-in, sign-out and session routes (limited to those the console uses): they
  // need Next's request scope, so they are exercised over HTTP against the built server in
  // tests/http/sign-in.test.ts, session.test.ts and redirects.test.ts, and by e2e/auth.spec.ts.
  "api/auth/[...nextauth]/route.ts": "next-auth",
  "api/health/route.ts": [
    { method: "GET", path: "/api/health", expect: ALL(200) },
    { method: "HEAD", path: "/api/health", expect: ALL(200) },
  ],
  "api/health/ready/route.ts": [
    { method: "GET", path: "/api/health/ready", expect: ALL(200) },
    { method: "HEAD", path: "/api/health/ready", expect: ALL(200) },
  ],
  // Prometheus's, with METRICS_TOKEN alone: unset here, so nobody (tests/http/logs-and-metrics.test.ts has it set).
  "metrics/route.ts": [{ method: "GET", path: "/metrics", expect: ALL(404) }],
  "api/v1/branches/route.ts": [
    { method: "GET", path: "/api/v1/branches", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 200) },
    { method: "POST", path: "/api/v1/branches", json: { name: "Matrix {who}" }, expect: r({ anonymous: 401, staff: 403, admin: 201 }, 403) },
  ],
  "api/v1/branches/[id]/route.ts": [
    { method: "GET", path: "/api/v1/branches/{branch}", expect: r({ anonymous: 401, staff: 200, scoped: 404, admin: 200 }, 200) },
    { method: "PATCH", path: "/api/v1/branches/{branch}", json: { name: "Matrix renamed" }, expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403) },
    { method: "DELETE", path: "/api/v1/branches/{branch}", expect: r({ anonymous: 401, staff: 403, admin: 204 }, 403) },
  ],
  "api/v1/countries/route.ts": [{ method: "GET", path: "/api/v1/countries", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 200) }],
  "api/v1/subscribers/route.ts": [
    { method: "GET", path: "/api/v1/subscribers", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 200) },
    {
      method: "POST",
      path: "/api/v1/subscribers",
      json: { first_name: "Mat", last_name: "Rix", email: "matrix-{who}@example.com", mobile: "+447400555{n}", subscription_status: "active", is_mandatory: false },
      // Without a branch: a scoped user's subscriber needs one of theirs.
      expect: r({ anonymous: 401, staff: 201, scoped: 400, admin: 201 }, 403),
    },
  ],
  // One subscriber: read by anyone signed in (and read tokens), edited by anyone signed in, deleted by admins.
  "api/v1/subscribers/[id]/route.ts": [
    { method: "GET", path: "/api/v1/subscribers/{subscriber}", expect: r({ anonymous: 401, staff: 200, scoped: 404, admin: 200 }, 200) },
    { method: "PATCH", path: "/api/v1/subscribers/{subscriber}", json: { last_name: "Matrix {who}", updated_at: "{subscriber-version}" }, expect: r({ anonymous: 401, staff: 200, scoped: 404, admin: 200 }, 403) },
    { method: "DELETE", path: "/api/v1/subscribers/{subscriber}", expect: r({ anonymous: 401, staff: 403, admin: 204 }, 403) },
  ],
  // Duplicates: anyone signed in reviews them and marks "not duplicates" (a scoped user's are
  // in their branches only: others' ids are unknown ids); only administrators take that back.
  "api/v1/subscribers/duplicates/route.ts": [
    { method: "GET", path: "/api/v1/subscribers/duplicates", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 200) },
  ],
  "api/v1/subscribers/duplicates/dismiss/route.ts": [
    { method: "POST", path: "/api/v1/subscribers/duplicates/dismiss", json: { ids: ["{subscriber}", "{subscriber}"] }, expect: r({ anonymous: 401, staff: 200, scoped: 404, admin: 200 }, 403) },
  ],
  "api/v1/subscribers/duplicates/dismiss/undo/route.ts": [
    { method: "POST", path: "/api/v1/subscribers/duplicates/dismiss/undo", json: { ids: ["{subscriber}", "{subscriber}"] }, expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403) },
  ],
  // Merges and their undo: administrators only (an unknown merge: 404; a body of no ids: 400).
  "api/v1/subscribers/merge/route.ts": [
    { method: "POST", path: "/api/v1/subscribers/merge", json: { survivor_id: 1 }, expect: r({ anonymous: 401, staff: 403, admin: 400 }, 403) },
  ],
  "api/v1/subscribers/merges/[merge_id]/undo/route.ts": [
    { method: "POST", path: "/api/v1/subscribers/merges/AAAAAAAAAAAAAAAAAAAAAA/undo", params: { merge_id: "AAAAAAAAAAAAAAAAAAAAAA" }, expect: r({ anonymous: 401, staff: 403, admin: 404 }, 403) },
  ],
  // The column chooser's form: the signed-in user's own table settings, then back to the list.
  "(console)/subscribers/table-settings/route.ts": [
    { method: "POST", path: "/subscribers/table-settings", form: "show=id&show=email&density=compact", expect: r({ anonymous: 401, staff: 303, admin: 303 }, 403) },
  ],
  // The export is the export scope's: a read token neither reads nor requests it.
  "api/v1/subscribers/export/route.ts": [
    { method: "GET", path: "/api/v1/subscribers/export", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 403, 200) },
    { method: "POST", path: "/api/v1/subscribers/export", expect: r({ anonymous: 401, staff: 202, admin: 202 }, 403, 202) },
  ],
  // Imports: anyone signed in uploads (a body that is not multipart: 415 once past the guard; a
  // token never uploads); an import and its rejected rows are their owner's: another user's
  // ({import}: completed, with rejected rows, which its owner gets) is the same 404 as none.
  "api/v1/subscribers/imports/route.ts": [
    { method: "GET", path: "/api/v1/subscribers/imports", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 200) },
    { method: "POST", path: "/api/v1/subscribers/imports", json: {}, expect: r({ anonymous: 401, staff: 415, admin: 415 }, 403) },
  ],
  "api/v1/subscribers/imports/[id]/route.ts": [
    { method: "GET", path: "/api/v1/subscribers/imports/{import}", params: { id: "{import}" }, expect: r({ anonymous: 401, staff: 404, admin: 404 }, 404) },
    { method: "GET", path: "/api/v1/subscribers/imports/{export}", params: { id: "{export}" }, expect: r({ anonymous: 401, staff: 404, admin: 404 }, 404) },
  ],
  "api/v1/subscribers/imports/[id]/rejected/route.ts": [
    { method: "GET", path: "/api/v1/subscribers/imports/{import}/rejected", params: { id: "{import}" }, expect: r({ anonymous: 401, staff: 404, admin: 404 }, 404) },
    { method: "GET", path: "/api/v1/subscribers/imports/{export}/rejected", params: { id: "{export}" }, expect: r({ anonymous: 401, staff: 404, admin: 404 }, 404) },
  ],
  "api/v1/subscribers/imports/template/route.ts": [
    { method: "GET", path: "/api/v1/subscribers/imports/template", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 200) },
  ],
  // Paths no other handler serves: docs/API.md's 404, whoever asks.
  "api/v1/[...path]/route.ts": ["GET", "POST", "PUT", "PATCH", "DELETE"].map((method) => ({
    method,
    path: "/api/v1/no-such-path",
    expect: ALL(404),
  })),
  // The OpenAPI document: no session needed, whoever asks.
  "api/v1/openapi.json/route.ts": [{ method: "GET", path: "/api/v1/openapi.json", expect: ALL(200) }],
  // Nobody but the owner gets a file: an export that is not yours is the same 404 as no export.
  "api/v1/exports/[id]/download/route.ts": [
    { method: "GET", path: "/api/v1/exports/{export}/download", params: { id: "{export}" }, expect: r({ anonymous: 401, staff: 404, admin: 404 }, 403, 404) },
  ],
  // Users: administrators only; a token reads them when its user is one, never changes them.
  "api/v1/users/route.ts": [
    { method: "GET", path: "/api/v1/users", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 200) },
    { method: "POST", path: "/api/v1/users", json: { name: "Matrix {who}", email: "matrix-user-{n}@example.com", role: "staff" }, expect: r({ anonymous: 401, staff: 403, admin: 201 }, 403) },
  ],
  "api/v1/users/[id]/route.ts": [
    { method: "PATCH", path: "/api/v1/users/{user}", json: { name: "Matrix renamed" }, expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403) },
  ],
  // One's own language: anyone signed in with a session; a token (read or export) never writes.
  "api/v1/users/me/route.ts": [
    { method: "PATCH", path: "/api/v1/users/me", json: { locale: null }, expect: r({ anonymous: 401, staff: 200, admin: 200 }, 403) },
  ],
  "api/v1/users/[id]/two-factor/route.ts": [
    { method: "DELETE", path: "/api/v1/users/{user}/two-factor", expect: r({ anonymous: 401, staff: 403, admin: 204 }, 403) },
  ],
  "api/v1/users/[id]/sso/route.ts": [
    { method: "DELETE", path: "/api/v1/users/{user}/sso", expect: r({ anonymous: 401, staff: 403, admin: 204 }, 403) },
  ],
  // Tokens: your own, with a session only (a token cannot make or revoke tokens).
  "api/v1/tokens/route.ts": [
    { method: "GET", path: "/api/v1/tokens", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 403) },
    { method: "POST", path: "/api/v1/tokens", json: { name: "Matrix {who}", scope: "read", expires_at: "{tomorrow}" }, expect: r({ anonymous: 401, staff: 201, admin: 201 }, 403) },
  ],
  // Saved views: anyone signed in keeps their own (a token reads them, never writes). Another
  // user's private view is the same 404 as none to everyone, admins included; another user's
  // shared view is read by all and changed or deleted by administrators only.
  // One's own activity; another user's is an administrator's (a read token reads it too).
  "api/v1/activity/route.ts": [
    { method: "GET", path: "/api/v1/activity", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 200) },
    { method: "GET", path: "/api/v1/activity?user_id={admin}", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 200) },
  ],
  "api/v1/views/route.ts": [
    { method: "GET", path: "/api/v1/views?resource=subscribers", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 200) },
    { method: "POST", path: "/api/v1/views", json: { resource: "subscribers", name: "Matrix {who}", query: "subscription_status=active" }, expect: r({ anonymous: 401, staff: 201, admin: 201 }, 403) },
  ],
  "api/v1/views/[id]/route.ts": [
    { method: "GET", path: "/api/v1/views/{private-view}", expect: r({ anonymous: 401, staff: 404, admin: 404 }, 404) },
    { method: "PATCH", path: "/api/v1/views/{private-view}", json: { name: "Matrix {who}" }, expect: r({ anonymous: 401, staff: 404, admin: 404 }, 403) },
    { method: "DELETE", path: "/api/v1/views/{private-view}", expect: r({ anonymous: 401, staff: 404, admin: 404 }, 403) },
    { method: "GET", path: "/api/v1/views/{shared-view}", expect: r({ anonymous: 401, staff: 200, admin: 200 }, 200) },
    { method: "PATCH", path: "/api/v1/views/{shared-view}", json: { name: "Matrix {who}" }, expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403) },
    { method: "DELETE", path: "/api/v1/views/{shared-view}", expect: r({ anonymous: 401, staff: 403, admin: 204 }, 403) },
  ],
  // The trash: administrators only; an administrator's token reads its lists, never changes it.
  "api/v1/trash/subscribers/route.ts": [{ method: "GET", path: "/api/v1/trash/subscribers", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 200) }],
  "api/v1/trash/branches/route.ts": [{ method: "GET", path: "/api/v1/trash/branches?name=Matrix", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 200) }],
  "api/v1/trash/subscribers/[id]/route.ts": [
    { method: "DELETE", path: "/api/v1/trash/subscribers/{trashed-subscriber}", expect: r({ anonymous: 401, staff: 403, admin: 204 }, 403) },
  ],
  "api/v1/trash/subscribers/[id]/restore/route.ts": [
    { method: "POST", path: "/api/v1/trash/subscribers/{trashed-subscriber}/restore", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403) },
  ],
  "api/v1/trash/branches/[id]/route.ts": [
    { method: "DELETE", path: "/api/v1/trash/branches/{trashed-branch}", expect: r({ anonymous: 401, staff: 403, admin: 204 }, 403) },
  ],
  "api/v1/trash/branches/[id]/restore/route.ts": [
    { method: "POST", path: "/api/v1/trash/branches/{trashed-branch}/restore", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403) },
  ],
  // A person's data: administrators only (an administrator's token may read the archive, never erase).
  "api/v1/people/export/route.ts": [
    { method: "GET", path: "/api/v1/people/export?subscriber_id={subscriber}", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 200) },
  ],
  "api/v1/people/retention/route.ts": [{ method: "GET", path: "/api/v1/people/retention", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 200) }],
  "api/v1/people/erase/route.ts": [
    { method: "POST", path: "/api/v1/people/erase", json: { subscriber_id: "{subscriber}", confirm: true }, expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403) },
  ],
  // Bulk changes through the API: the page's rules (deletion for administrators; a scoped user's
  // ids of other branches match nothing: 400); a change is its author's and administrators' to
  // read and undo (anyone else: 404), never a token's to make or undo.
  "api/v1/subscribers/bulk/route.ts": [
    { method: "POST", path: "/api/v1/subscribers/bulk", json: { ids: ["{bulk-target}"], change: { is_mandatory: true } }, expect: r({ anonymous: 401, staff: 200, scoped: 400, admin: 200 }, 403) },
    { method: "POST", path: "/api/v1/subscribers/bulk", json: { ids: ["{bulk-target}"], change: { delete: true } }, expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403) },
  ],
  "api/v1/subscribers/bulk/[id]/route.ts": [
    { method: "GET", path: "/api/v1/subscribers/bulk/{staff-bulk}", params: { id: "{staff-bulk}" }, expect: r({ anonymous: 401, staff: 200, scoped: 404, admin: 200 }, 200) },
  ],
  "api/v1/subscribers/bulk/[id]/undo/route.ts": [
    { method: "POST", path: "/api/v1/subscribers/bulk/{staff-bulk}/undo", params: { id: "{staff-bulk}" }, expect: r({ anonymous: 401, staff: 200, scoped: 404, admin: 200 }, 403) },
    // A deletion's undo: administrators only (staff: not theirs, 404).
    { method: "POST", path: "/api/v1/subscribers/bulk/{admin-deletion}/undo", params: { id: "{admin-deletion}" }, expect: r({ anonymous: 401, staff: 404, admin: 200 }, 403) },
  ],
  "api/v1/tokens/[id]/route.ts": [
    { method: "DELETE", path: "/api/v1/tokens/{admin-token}", expect: r({ anonymous: 401, staff: 404, admin: 204 }, 403) },
  ],
  // Outgoing webhooks: administrators only; an administrator's token reads them, never changes them
  // (a target on a public address, written as an IP: no name to resolve).
  "api/v1/webhooks/route.ts": [
    { method: "GET", path: "/api/v1/webhooks", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 200) },
    { method: "POST", path: "/api/v1/webhooks", json: { url: "https://93.184.215.14/matrix", events: ["subscriber.created"] }, expect: r({ anonymous: 401, staff: 403, admin: 201 }, 403) },
  ],
  "api/v1/webhooks/[id]/route.ts": [
    { method: "GET", path: "/api/v1/webhooks/{hook}", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 200) },
    { method: "PATCH", path: "/api/v1/webhooks/{hook}", json: { description: "Matrix {who}" }, expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403) },
    { method: "DELETE", path: "/api/v1/webhooks/{hook}", expect: r({ anonymous: 401, staff: 403, admin: 204 }, 403) },
  ],
  "api/v1/webhooks/[id]/rotate-secret/route.ts": [
    { method: "POST", path: "/api/v1/webhooks/{hook}/rotate-secret", expect: r({ anonymous: 401, staff: 403, admin: 201 }, 403) },
  ],
  "api/v1/webhooks/[id]/test/route.ts": [
    { method: "POST", path: "/api/v1/webhooks/{hook}/test", expect: r({ anonymous: 401, staff: 403, admin: 202 }, 403) },
  ],
  "api/v1/webhooks/[id]/deliveries/route.ts": [
    { method: "GET", path: "/api/v1/webhooks/{hook}/deliveries", expect: r({ anonymous: 401, staff: 403, admin: 200 }, 200) },
  ],
  "api/v1/webhooks/[id]/deliveries/[delivery_id]/resend/route.ts": [
    {
      method: "POST",
      path: "/api/v1/webhooks/{hook}/deliveries/{hook-delivery}/resend",
      params: { id: "{hook}", delivery_id: "{hook-delivery}" },
      expect: r({ anonymous: 401, staff: 403, admin: 200 }, 403),
    },
  ],
};

/** Server actions: file → export → expected outcome ("ok" = got past the guard). */
const ACTIONS: Record<string, Record<string, Expect>> = {
  "(console)/branches/actions.ts": {
    createBranchAction: { anonymous: 401, staff: 403, admin: "ok" },
    updateBranchAction: { anonymous: 401, staff: 403, admin: "ok" },
    countBranchSubscribersAction: { anonymous: 401, staff: 403, admin: "ok" },
    deleteBranchAction: { anonymous: 401, staff: 403, admin: "ok" },
  },
  "(console)/subscribers/actions.ts": {
    createSubscriberAction: { anonymous: 401, staff: "ok", admin: "ok" },
    updateSubscriberAction: { anonymous: 401, staff: "ok", admin: "ok" },
    deleteSubscriberAction: { anonymous: 401, staff: 403, admin: "ok" },
    // Erasing a person (the record page's): administrators only.
    erasePersonAction: { anonymous: 401, staff: 403, admin: "ok" },
    checkDuplicateAction: { anonymous: 401, staff: "ok", admin: "ok" },
  },
  "(console)/subscribers/duplicates/actions.ts": {
    dismissDuplicatesAction: { anonymous: 401, staff: "ok", admin: "ok" },
    undoDismissalAction: { anonymous: 401, staff: 403, admin: "ok" },
    mergeAction: { anonymous: 401, staff: 403, admin: "ok" },
    undoMergeAction: { anonymous: 401, staff: 403, admin: "ok" },
  },
  "(console)/subscribers/export-actions.ts": {
    requestExportAction: { anonymous: 401, staff: "ok", admin: "ok" },
  },
  "(console)/subscribers/bulk-actions.ts": {
    bulkChangeAction: { anonymous: 401, staff: "ok", admin: "ok" },
    undoBulkAction: { anonymous: 401, staff: "ok", admin: "ok" },
  },
  "(console)/trash/actions.ts": {
    restoreTrashAction: { anonymous: 401, staff: 403, admin: "ok" },
    eraseTrashAction: { anonymous: 401, staff: 403, admin: "ok" },
  },
  "(console)/subscribers/import/actions.ts": {
    previewImportAction: { anonymous: 401, staff: "ok", admin: "ok" },
    startImportAction: { anonymous: 401, staff: "ok", admin: "ok" },
  },
  "(console)/users/actions.ts": {
    createUserAction: { anonymous: 401, staff: 403, admin: "ok" },
    setBranchesAction: { anonymous: 401, staff: 403, admin: "ok" },
    changeRoleAction: { anonymous: 401, staff: 403, admin: "ok" },
    setActiveAction: { anonymous: 401, staff: 403, admin: "ok" },
    resetPasswordAction: { anonymous: 401, staff: 403, admin: "ok" },
    resetTwoFactorAction: { anonymous: 401, staff: 403, admin: "ok" },
    unlinkSsoAction: { anonymous: 401, staff: 403, admin: "ok" },
  },
  "(console)/account/two-factor/actions.ts": {
    startTwoFactorAction: { anonymous: 401, staff: "ok", admin: "ok" },
    confirmTwoFactorAction: { anonymous: 401, staff: "ok", admin: "ok" },
    newRecoveryCodesAction: { anonymous: 401, staff: "ok", admin: "ok" },
    turnOffTwoFactorAction: { anonymous: 401, staff: "ok", admin: "ok" },
  },
  // Views: anyone signed in; which view they may change is decided past the guard (the routes above).
  "(console)/views/actions.ts": {
    saveViewAction: { anonymous: 401, staff: "ok", admin: "ok" },
    updateViewAction: { anonymous: 401, staff: "ok", admin: "ok" },
    deleteViewAction: { anonymous: 401, staff: "ok", admin: "ok" },
    setDefaultViewAction: { anonymous: 401, staff: "ok", admin: "ok" },
  },
  // Outgoing webhooks: administrators only.
  "(console)/webhooks/actions.ts": {
    createWebhookAction: { anonymous: 401, staff: 403, admin: "ok" },
    updateWebhookAction: { anonymous: 401, staff: 403, admin: "ok" },
    deleteWebhookAction: { anonymous: 401, staff: 403, admin: "ok" },
    rotateWebhookSecretAction: { anonymous: 401, staff: 403, admin: "ok" },
    sendTestWebhookAction: { anonymous: 401, staff: 403, admin: "ok" },
    resendDeliveryAction: { anonymous: 401, staff: 403, admin: "ok" },
  },
  "(console)/account/actions.ts": {
    changePasswordAction: { anonymous: 401, staff: "ok", admin: "ok" },
    createTokenAction: { anonymous: 401, staff: "ok", admin: "ok" },
    revokeTokenAction: { anonymous: 401, staff: "ok", admin: "ok" },
    setLocaleAction: { anonymous: 401, staff: "ok", admin: "ok" },
  },
  // The link's secret is the credential: anyone may try one (a wrong one changes nothing).
  "set-password/[token]/actions.ts": {
    setPasswordAction: EVERYONE("ok"),
  },
  // Signing out is open to anyone (with no session there is nothing to end): always to /login.
  "(console)/session-actions.ts": {
    signOutAction: EVERYONE("redirect"),
  },
};

const APP = path.resolve("app");
function filesNamed(test: (name: string) => boolean, dir = APP): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesNamed(test, full);
    return test(entry.name) ? [path.relative(APP, full)] : [];
  });
}
const isServerActionFile = (file: string) => /^\s*["']use server["']/.test(fs.readFileSync(path.join(APP, file), "utf8"));

/** What a thrown Next interrupt or a normal return means. */
async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    await run();
    return "ok";
  } catch (error) {
    const digest = String((error as { digest?: string }).digest ?? "");
    if (digest.startsWith("NEXT_REDIRECT")) return digest.includes("/login?callbackUrl=") ? "login" : "redirect";
    const status = /^NEXT_HTTP_ERROR_FALLBACK;(\d+)$/.exec(digest);
    if (status) return Number(status[1]);
    throw error;
  }
}

describe("authorization matrix", () => {
  let suite: ExportSuite;
  let users: Record<Person, SessionUser | null>;
  let bearer: Record<TokenCaller, string>;
  let branchIds: number[] = [];
  let home = 0;
  const adminTokenIds: number[] = [];
  /** Subscribers to read, edit and delete, each with the version an edit names. */
  let subscribers: { id: number; version: string }[] = [];
  let subscriber = { id: 0, version: "" };
  let n = 0;
  /** Another user's imports: a completed one with rejected rows, and a preview (a dry run) not started. */
  let otherImport = { owner: null as unknown as SessionUser, completed: "", preview: "" };
  /** Views of a user who is none of the callers: one private, some shared (each DELETE takes one). */
  const otherViews = { private: 0, shared: [] as number[] };
  /** What the trash and undo calls take, one each: trashed subscribers and branches, staff's bulk changes, an admin's deletions. */
  const pools = { bulkTargets: [] as number[], trashedSubscribers: [] as number[], trashedBranches: [] as number[], staffBulk: [] as string[], adminDeletions: [] as string[] };
  /** Webhook endpoints, each with one delivery (each call takes one); `hook` is the last one taken. */
  const hooks: { id: number; delivery: string }[] = [];
  let hook = { id: 0, delivery: "" };

  beforeAll(async () => {
    suite = await openExportSuite("pglite", 60);
    await syncCountries(suite.database.prisma);
    // The scoped staff member's own branch, with none of the subscribers the calls are given.
    home = (await suite.database.prisma.branch.create({ data: { name: "Matrix scoped home" }, select: { id: true } })).id;
    const scoped = await suite.database.prisma.user.create({
      data: { email: "scoped@test.local", name: "Scoped Staff", role: "staff", password_hash: "x", branch_scoped: true, branches: { create: [{ branch_id: home }] } },
      select: { id: true, email: true, name: true, role: true },
    });
    users = { anonymous: null, staff: suite.staff, scoped: { ...scoped, branch_ids: [home] }, admin: suite.admin };
    const branches = await suite.database.prisma.branch.createManyAndReturn({
      data: Array.from({ length: 30 }, (_, i) => ({ name: `Matrix branch ${i}` })),
      select: { id: true },
    });
    branchIds = branches.map((b) => b.id);
    subscribers = (await suite.database.prisma.subscriber.findMany({ select: { id: true, created_at: true }, orderBy: { id: "asc" } })).map((x) => ({
      id: x.id,
      version: x.created_at.toISOString(),
    }));
    const expires_at = new Date(Date.now() + 7 * 86_400_000);
    // The tokens' user: an administrator of their own (their export requests are theirs alone).
    const owner = { ...(await suite.database.prisma.user.create({
      data: { email: "token-owner@test.local", name: "Token Owner", role: "admin", password_hash: "x" },
      select: { id: true, email: true, name: true, role: true },
    })), branch_ids: null } as SessionUser;
    const token = async (scope: "read" | "export", name: string) => (await createToken(owner, { name, scope, expires_at })).token;
    bearer = { "read token": await token("read", "Matrix read"), "export token": await token("export", "Matrix export") };
    for (let i = 0; i < 8; i++) adminTokenIds.push((await createToken(suite.admin, { name: `Matrix to revoke ${i}`, scope: "read", expires_at })).row.id);
    // Imports of a user who is none of the callers (nor the tokens' user).
    const importOwner = { ...(await suite.database.prisma.user.create({
      data: { email: "import-owner@test.local", name: "Import Owner", role: "staff", password_hash: "x" },
      select: { id: true, email: true, name: true, role: true },
    })), branch_ids: null } as SessionUser;
    const upload = async (fields: Record<string, string>) => {
      actAs(importOwner);
      request.headers = new Headers();
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set("file", new Blob(["first_name,last_name,email,mobile\nAnn,Owner,ann.owner@example.com,+447911100123\nBad,Row,not-an-email,+447911100124\n"]), "Owner.csv");
      const response = await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: form }), {});
      expect(response.status, await response.clone().text()).toBe(fields.dry_run ? 200 : 202);
      return ((await response.json()) as { id: string }).id;
    };
    otherImport = { owner: importOwner, completed: await upload({}), preview: await upload({ dry_run: "true" }) };
    const view = (name: string, shared: boolean) =>
      suite.database.prisma.savedView.create({ data: { owner_id: importOwner.id, resource: "subscribers", name, query: "is_mandatory=true", shared }, select: { id: true } });
    otherViews.private = (await view("Matrix private", false)).id;
    for (let i = 0; i < 20; i++) otherViews.shared.push((await view(`Matrix shared ${i}`, true)).id);
    expect(await runImport(otherImport.completed)).toMatchObject({ imported: 1, rejected: 1 });
    // The trash's records and bulk changes the calls take (each call one).
    const conn = await connection();
    const extra = await conn.query<{ id: number }>(sql`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status)
      SELECT 'Trash', 'Matrix ' || g, 'trash-matrix-' || g || '@example.com', '+4474009' || lpad(g::text, 5, '0'), 'active' FROM generate_series(1, 80) g RETURNING id`);
    const extraIds = extra.map((r) => r.id);
    const trashed = extraIds.splice(0, 20);
    await transaction((tx) => trashSubscribers(tx, trashed, { deletedBy: suite.admin.id }));
    pools.trashedSubscribers = trashed;
    const trashedBranches = await suite.database.prisma.branch.createManyAndReturn({ data: Array.from({ length: 20 }, (_, i) => ({ name: `Matrix trashed ${i}` })), select: { id: true } });
    pools.trashedBranches = trashedBranches.map((b) => b.id);
    await conn.query(sql`UPDATE branches SET deleted_at = now(), deleted_by = ${suite.admin.id} WHERE id = ANY(${pools.trashedBranches}::int[])`);
    const EVERY = branchScope({ role: "admin", branch_ids: null });
    for (let i = 0; i < 20; i++) {
      pools.staffBulk.push((await requestBulkChange(EVERY, suite.staff, { ids: [extraIds.pop()!] }, { is_mandatory: true })).id);
      pools.adminDeletions.push((await requestBulkChange(EVERY, suite.admin, { ids: [extraIds.pop()!] }, { delete: true })).id);
    }
    pools.bulkTargets = extraIds;
    for (let i = 0; i < 60; i++) {
      const endpoint = await suite.database.prisma.webhookEndpoint.create({ data: { url: `https://93.184.215.14/matrix/${i}`, events: ["subscriber.created"], secret: `whsec_matrix${i}` }, select: { id: true } });
      const event = await suite.database.prisma.webhookEvent.create({ data: { id: `msg_matrix${i}`, type: "ping", data: {} }, select: { id: true } });
      const delivery = await suite.database.prisma.webhookDelivery.create({ data: { event_id: event.id, endpoint_id: endpoint.id, status: "dead" }, select: { id: true } });
      hooks.push({ id: endpoint.id, delivery: String(delivery.id) });
    }
    // Its owner gets both: the 404s below are about who asks, not about what is there.
    actAs(importOwner);
    const own = await statusGET(apiRequest(`/api/v1/subscribers/imports/${otherImport.completed}`), routeContext({ id: otherImport.completed }));
    expect(await own.json()).toMatchObject({ status: "completed", rejected_file: `/api/v1/subscribers/imports/${otherImport.completed}/rejected` });
    expect((await rejectedGET(apiRequest(`/api/v1/subscribers/imports/${otherImport.completed}/rejected`), routeContext({ id: otherImport.completed }))).status).toBe(200);
  }, 180_000);
  afterAll(async () => closeExportSuite(suite));

  const fill = (text: string, who: Who) =>
    text
      .replaceAll('"{bulk-target}"', () => String(pools.bulkTargets.pop()))
      .replaceAll("{who}", who)
      .replaceAll("{n}", () => String(100 + n++))
      .replaceAll("{branch}", () => String(branchIds.pop()))
      .replaceAll("{subscriber}", () => {
        subscriber = subscribers.pop()!;
        return String(subscriber.id);
      })
      .replaceAll("{subscriber-version}", () => subscriber.version)
      .replaceAll("{hook}", () => {
        hook = hooks.pop()!;
        return String(hook.id);
      })
      .replaceAll("{hook-delivery}", () => hook.delivery)
      .replaceAll("{user}", () => String(suite.staff.id))
      .replaceAll("{admin}", () => String(suite.admin.id))
      .replaceAll("{admin-token}", () => String(adminTokenIds.pop()))
      .replaceAll("{tomorrow}", new Date(Date.now() + 86_400_000).toISOString().slice(0, 10))
      .replaceAll("{export}", "AAAAAAAAAAAAAAAAAAAAAA")
      .replaceAll("{import}", () => otherImport.completed)
      .replaceAll("{private-view}", String(otherViews.private))
      .replaceAll("{shared-view}", () => String(otherViews.shared.pop()))
      .replaceAll("{trashed-subscriber}", () => String(pools.trashedSubscribers.pop()))
      .replaceAll("{trashed-branch}", () => String(pools.trashedBranches.pop()))
      .replaceAll("{staff-bulk}", () => pools.staffBulk.pop()!)
      .replaceAll("{admin-deletion}", () => pools.adminDeletions.pop()!);

  /**
   * Who the guards see: a person's session, or (for a token caller) none, with the token on the
   * request: in the headers next/headers gives pages and actions, and in the route's Request.
   */
  const as = (who: Who): { headers: Record<string, string> } => {
    const token = who === "read token" || who === "export token";
    const headers: Record<string, string> = token ? { authorization: `Bearer ${bearer[who]}` } : {};
    actAs(token ? null : users[who]);
    request.headers = new Headers(headers);
    return { headers };
  };
  /** The request's headers as the code under test reads them. */
  const nextHeaders = async () => Object.fromEntries(await (await import("next/headers")).headers());
  const personOf = (who: Who): Person => (who === "read token" || who === "export token" ? "anonymous" : who);

  /**
   * What of other branches than the scoped member's there is: the emails of subscribers outside it
   * (no branch included) and the other branches' names, to look for in an answer; and a digest of
   * those rows (the trash's and the "not duplicates" pairs too), to see a call changed none.
   */
  const otherBranches = async () => {
    const [row] = await (await connection()).query<{ markers: string[]; digest: string }>(sql`SELECT
      ARRAY(SELECT email FROM subscribers WHERE branch_id IS DISTINCT FROM ${home}) || ARRAY(SELECT name FROM branches WHERE id <> ${home}) AS markers,
      md5(concat((SELECT string_agg(s::text, ',' ORDER BY s.id) FROM subscribers s WHERE branch_id IS DISTINCT FROM ${home}),
                 (SELECT string_agg(b::text, ',' ORDER BY b.id) FROM branches b WHERE id <> ${home}),
                 (SELECT string_agg(t.id::text, ',' ORDER BY t.id) FROM subscriber_trash t WHERE branch_id IS DISTINCT FROM ${home}),
                 (SELECT string_agg(d.low_id || '-' || d.high_id, ',' ORDER BY d.low_id, d.high_id) FROM subscriber_dismissals d))) AS digest`);
    return row!;
  };
  const shownOf = (text: string, markers: readonly string[]) => markers.filter((m) => text.includes(m));
  /** Runs a scoped member's call and checks its answer (as text) shows, and its effects change, nothing of another branch. */
  const nothingOfOtherBranches = async <T>(who: Who, call: () => Promise<T>, text: (answer: T) => Promise<string>): Promise<T> => {
    if (who !== "scoped") return call();
    const before = await otherBranches();
    const answer = await call();
    const after = await otherBranches();
    expect(shownOf(await text(answer), after.markers), "another branch's subscribers or names shown").toEqual([]);
    expect(after.digest, "another branch's rows changed").toBe(before.digest);
    return answer;
  };
  /** A page's answer as text: its element tree's props, with the async server components inside it run (client ones are props only). */
  const pageText = async (node: unknown, depth = 0): Promise<string> => {
    if (depth > 12 || node === null || typeof node !== "object") return typeof node === "string" || typeof node === "number" ? String(node) : "";
    if (Array.isArray(node)) return (await Promise.all(node.map((n) => pageText(n, depth + 1)))).join(" ");
    const element = node as { type?: unknown; props?: Record<string, unknown> };
    if (!element.props) return safeJson(node);
    const own = safeJson({ ...element.props, children: undefined });
    const inner = typeof element.type === "function" && element.type.constructor.name === "AsyncFunction"
      ? await (element.type as (p: unknown) => Promise<unknown>)(element.props).then((n) => pageText(n, depth + 1), () => "")
      : await pageText(element.props.children, depth + 1);
    return `${own} ${inner}`;
  };
  const safeJson = (value: unknown) => {
    try {
      return JSON.stringify(value, (_k, v: unknown) => (typeof v === "function" || typeof v === "symbol" || v instanceof Promise ? undefined : v)) ?? "";
    } catch {
      return "";
    }
  };

  for (const [file, expected] of Object.entries(PAGES)) {
    for (const who of CALLERS) {
      it(`page ${file} as ${who} → ${answerOf(expected, personOf(who))}`, async () => {
        const { headers } = as(who);
        expect(await nextHeaders()).toEqual(headers);
        const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as { default: (props: unknown) => Promise<unknown> | unknown };
        const id = file.includes("subscribers/[id]") ? subscribers[0]!.id : file.includes("subscribers/import/[id]") ? otherImport.preview : file.includes("webhooks/[id]") ? hooks[0]!.id : branchIds[0];
        const props = { params: Promise.resolve({ id: String(id), token: "not-a-link" }), searchParams: Promise.resolve({}) };
        let tree: unknown = null;
        const answer = await nothingOfOtherBranches(who, () => outcome(async () => void (tree = await mod.default(props))), () => pageText(tree));
        expect(answer).toBe(answerOf(expected, personOf(who)));
      });
    }
  }

  for (const [file, calls] of Object.entries(ROUTES)) {
    if (calls === "next-auth") continue;
    for (const call of calls) {
      for (const who of CALLERS) {
        it(`${call.method} ${call.path} as ${who} → ${answerOf(call.expect, who)}`, async () => {
          const { headers } = as(who);
          const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as Record<string, (r: Request, c: unknown) => Promise<Response>>;
          // The call's params filled once, and the path showing the same values (each fill takes a record from a pool).
          const named = Object.fromEntries(Object.entries(call.params ?? {}).map(([k, v]) => [k, fill(v, who)]));
          const url = fill(Object.entries(call.params ?? {}).reduce((p, [k, v]) => p.replaceAll(v, named[k]!), call.path), who);
          // The route's [id]: named by the call, else the path's segment after the resource.
          const id = named.id ?? /\/(?:branches|exports|users|tokens|subscribers|views|webhooks)\/([^/?]+)/.exec(url)?.[1];
          const body = call.json === undefined ? undefined : JSON.parse(fill(JSON.stringify(call.json), who));
          const init = call.form === undefined ? { json: body, headers } : { body: call.form, headers: { ...headers, "content-type": "application/x-www-form-urlencoded" } };
          const response = await nothingOfOtherBranches(
            who,
            () => mod[call.method]!(apiRequest(url, { method: call.method, ...init }), { params: Promise.resolve({ ...named, id }) }),
            (r) => r.clone().text(),
          );
          expect(response.status, `${url} ${await response.clone().text()}`).toBe(answerOf(call.expect, who));
        });
      }
    }
  }

  for (const [file, actions] of Object.entries(ACTIONS)) {
    for (const [name, expected] of Object.entries(actions)) {
      for (const who of CALLERS) {
        it(`action ${name} as ${who} → ${answerOf(expected, personOf(who))}`, async () => {
          const { headers } = as(who);
          expect(await nextHeaders()).toEqual(headers);
          const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as Record<string, (input: unknown) => Promise<{ ok: boolean }>>;
          const input = /^(delete|update|count|erase)/.test(name) ? { id: branchIds.pop(), name: `Matrix action ${who}` } : { name: `Matrix action ${who} ${name}` };
          const before = await Promise.all([suite.database.prisma.branch.count(), suite.database.prisma.user.count(), suite.database.prisma.apiToken.count()]);
          let returned: unknown = null;
          const result = await nothingOfOtherBranches(who, () => outcome(async () => void (returned = await mod[name]!(input))), async () => safeJson(returned));
          expect(result).toBe(answerOf(expected, personOf(who)));
          // Refused: nothing changed.
          if (result !== "ok") {
            expect(await Promise.all([suite.database.prisma.branch.count(), suite.database.prisma.user.count(), suite.database.prisma.apiToken.count()])).toEqual(before);
          }
        });
      }
    }
  }

  // The import page's actions on another user's import: past the guard, the same "not found"
  // as no import, and the import unchanged (tokens: no session, 401 as for every action).
  for (const who of CALLERS) {
    it(`actions previewImportAction and startImportAction on another user's import as ${who} → ${personOf(who) === "anonymous" ? 401 : "not found"}`, async () => {
      const mod = (await import(/* @vite-ignore */ path.join(APP, "(console)/subscribers/import/actions.ts"))) as Record<string, (input: unknown) => Promise<{ ok: boolean; formError?: string }>>;
      const conn = await connection();
      const row = () => conn.query(sql`SELECT status::text AS status, dry_run, attempt, mapping, sheet_name, job_id FROM subscriber_imports WHERE id = ${otherImport.preview}`);
      const before = await row();
      const calls: [string, unknown][] = [
        ["previewImportAction", { id: otherImport.preview, mapping: ["first_name", "last_name", "email", null], sheet_name: "Taken over" }],
        ["startImportAction", { id: otherImport.preview }],
      ];
      for (const [name, input] of calls) {
        as(who);
        if (personOf(who) === "anonymous") {
          expect(await outcome(() => mod[name]!(input))).toBe(401);
        } else {
          expect(await mod[name]!(input), name).toEqual({ ok: false, formError: "The import was not found." });
        }
      }
      expect(await row()).toEqual(before);
      // Its owner, by contrast, gets past "not found" with the same calls.
      actAs(otherImport.owner);
      request.headers = new Headers();
      expect(await mod.previewImportAction!(calls[0]![1])).toMatchObject({ ok: true });
    });
  }

  // The views page's actions on another user's views: a private one is the same "not found" as no
  // view to everyone, administrators included; a shared one is opened (made a default) by anyone
  // and changed or deleted by administrators only; refused, the view is unchanged.
  for (const who of CALLERS) {
    const person = personOf(who);
    it(`actions updateViewAction, deleteViewAction and setDefaultViewAction on another user's views as ${who}`, async () => {
      const mod = (await import(/* @vite-ignore */ path.join(APP, "(console)/views/actions.ts"))) as Record<string, (input: unknown) => Promise<{ ok: boolean; formError?: string }>>;
      const make = async (shared: boolean) =>
        (await suite.database.prisma.savedView.create({
          data: { owner_id: otherImport.owner.id, resource: "subscribers", name: `Matrix action ${who} ${shared ? "shared" : "private"}`, query: "is_mandatory=true", shared },
          select: { id: true },
        })).id;
      const views = { private: await make(false), shared: await make(true) };
      const row = (id: number) => suite.database.prisma.savedView.findUnique({ where: { id }, select: { name: true, query: true, columns: true, shared: true } });
      const before = { private: await row(views.private), shared: await row(views.shared) };
      const calls = (id: number): [string, unknown][] => [
        ["updateViewAction", { id, name: "Taken over" }],
        ["updateViewAction", { id, query: "subscription_status=active", columns: ["id", "email"] }],
        ["setDefaultViewAction", { resource: "subscribers", id }],
        ["deleteViewAction", { id }],
      ];
      const run = async (name: string, input: unknown) => {
        as(who);
        return person === "anonymous" ? outcome(() => mod[name]!(input)) : mod[name]!(input);
      };
      for (const [name, input] of calls(views.private)) {
        expect(await run(name, input), name).toEqual(person === "anonymous" ? 401 : { ok: false, formError: "The view was not found." });
      }
      expect(await row(views.private)).toEqual(before.private);
      const refused = { ok: false, formError: "Only its owner and administrators change a shared view." };
      for (const [name, input] of calls(views.shared)) {
        const expected = person === "anonymous" ? 401 : person === "admin" || name === "setDefaultViewAction" ? expect.objectContaining({ ok: true }) : refused;
        expect(await run(name, input), `${name} ${JSON.stringify(input)}`).toEqual(expected);
      }
      if (person === "admin") expect(await row(views.shared)).toBeNull();
      else expect(await row(views.shared)).toEqual(before.shared);
      // The callers' bare /subscribers stays the whole list for the other tests.
      await suite.database.prisma.savedViewDefault.deleteMany({ where: { view_id: views.shared } });
    });
  }

  // The scope dimension's check finds what it looks for: the same answers show other branches to unscoped staff.
  it("shows other branches' subscribers and names to unscoped staff, in the answers the scoped member gets none of", async () => {
    const { markers } = await otherBranches();
    for (const file of ["api/v1/subscribers/route.ts", "api/v1/branches/route.ts"]) {
      as("staff");
      const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as Record<string, (r: Request, c: unknown) => Promise<Response>>;
      const response = await mod.GET!(apiRequest(`/api/v1/${file.split("/")[2]}`), { params: Promise.resolve({}) });
      expect(shownOf(await response.text(), markers).length, file).toBeGreaterThan(0);
    }
    as("staff");
    const page = (await import(/* @vite-ignore */ path.join(APP, "(console)/subscribers/page.tsx"))) as { default: (props: unknown) => Promise<unknown> };
    const tree = await page.default({ params: Promise.resolve({}), searchParams: Promise.resolve({}) });
    expect(shownOf(await pageText(tree), markers).length).toBeGreaterThan(0);
  });

  it("lists every page of the app", () => {
    expect(filesNamed((f) => f === "page.tsx").sort()).toEqual(Object.keys(PAGES).sort());
  });

  it("lists every route handler and each of its methods", async () => {
    expect(filesNamed((f) => f === "route.ts").sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [file, calls] of Object.entries(ROUTES)) {
      if (calls === "next-auth") continue;
      const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as Record<string, unknown>;
      const methods = Object.keys(mod).filter((k) => /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(k));
      expect(methods.sort(), file).toEqual([...new Set(calls.map((c) => c.method))].sort());
    }
  });

  it("lists every server action", async () => {
    const files = filesNamed((f) => /\.tsx?$/.test(f)).filter(isServerActionFile);
    expect(files.sort()).toEqual(Object.keys(ACTIONS).sort());
    for (const [file, actions] of Object.entries(ACTIONS)) {
      const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as Record<string, unknown>;
      expect(Object.keys(mod).filter((k) => typeof mod[k] === "function").sort(), file).toEqual(Object.keys(actions).sort());
    }
  });
});
