import type { MessageGroup } from "./catalogues";

// What the client parts of the busiest pages read of namespaces the server reads whole: only these
// travel in every page's payload (ClientMessages), the server-only rest of each namespace stays on
// the server (docs/decisions/0050-precompiled-messages.md). tests/unit/client-words.test.ts fails
// when one of those client parts reads a message not listed here.

/** The error boundaries (app/error.tsx, app/global-error.tsx) and the 401, 403 and 404 states: every page carries them. */
export const ERROR_BOUNDARY_WORDS = [
  "errors.notFoundTitle",
  "errors.notFoundText",
  "errors.forbiddenTitle",
  "errors.forbiddenText",
  "errors.unauthorizedTitle",
  "errors.unauthorizedText",
  "errors.signIn",
  "errors.goToSubscribers",
  "errors.code",
  "errors.title",
  "errors.text",
  "errors.noReference",
  "errors.tryAgain",
  "errors.databaseDown",
  "errors.databaseDownText",
  "errors.databaseDownShort",
  "errors.reference",
  "errors.referenceNone",
] as const satisfies readonly MessageGroup[];

/** The list parts that run in the browser: the filter bar, chips, selection, and tables drawn by client code. */
export const LIST_CLIENT_WORDS = ["list.filterBar", "list.chips", "list.table", "list.sort", "list.pager", "list.selectPage", "list.loading"] as const satisfies readonly MessageGroup[];

/** A branch row's Delete, the branch table's one client part. */
export const BRANCH_TABLE_CLIENT_WORDS = ["branches.delete"] as const satisfies readonly MessageGroup[];

/** The views menu's forms and a view's actions. */
export const VIEWS_CLIENT_WORDS = ["views.actions", "views.save", "views.menu.edit", "views.menu.makeDefault", "views.menu.stopDefault", "views.loading", "views.offline", "views.saved", "views.notSaved"] as const satisfies readonly MessageGroup[];

/** The sign-in form and the single sign-on button. */
export const LOGIN_CLIENT_WORDS = [
  "login.email",
  "login.password",
  "login.code",
  "login.codeHint",
  "login.enterCode",
  "login.codeUsed",
  "login.tooManyAttempts",
  "login.invalidWithCode",
  "login.invalid",
  "login.signingIn",
  "login.signIn",
  "login.ssoButton",
  "login.ssoLeaving",
] as const satisfies readonly MessageGroup[];
