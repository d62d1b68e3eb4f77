import { countrySchema } from "@/lib/countries/schema";
import { listAnswer } from "@/lib/list/pagination";
import { createdTokenSchema, tokenCreateSchema, tokenSchema } from "@/lib/tokens/schema";
import { userFiltersSchema } from "@/lib/users/filters";
import { createdUserSchema, userCreateSchema, userLocaleSchema, userSchema, userUpdateSchema } from "@/lib/users/schema";
import { idPathParams } from "@/lib/validation/id";
import { z } from "zod";
import { operation } from "../operation";

export const countriesApi = {
  list: operation({
    method: "get", path: "/api/v1/countries", tag: "Countries", summary: "Every country, by name", access: "signed_in", tokenScope: "read",
    answers: { 200: z.object({ data: z.array(countrySchema) }) },
  }),
};

export const usersApi = {
  list: operation({
    method: "get", path: "/api/v1/users", tag: "Users", summary: "List users", access: "admin", tokenScope: "read",
    query: userFiltersSchema,
    answers: { 200: listAnswer(userSchema) },
  }),
  create: operation({
    method: "post", path: "/api/v1/users", tag: "Users", summary: "Create a user", access: "admin",
    description: "Without `password` the answer carries `set_password_url`, a one-time link shown this once.",
    body: userCreateSchema,
    answers: { 201: createdUserSchema },
    errors: [409],
  }),
  update: operation({
    method: "patch", path: "/api/v1/users/{id}", tag: "Users", summary: "Change a user's name, role or active", access: "admin",
    description: "409 for yourself (demote, deactivate); 422 `last_admin` when no active administrator would remain.",
    params: idPathParams,
    body: userUpdateSchema,
    answers: { 200: userSchema },
    errors: [409, 422],
  }),
  updateMe: operation({
    method: "patch", path: "/api/v1/users/me", tag: "Users", summary: "Choose your own language", access: "signed_in",
    description: "`locale`: `en`, `fr` or `ar`, or `null` to follow the browser's `Accept-Language`. The console's pages follow it from the next request on.",
    body: userLocaleSchema,
    answers: { 200: userSchema },
  }),
  resetTwoFactor: operation({
    method: "delete", path: "/api/v1/users/{id}/two-factor", tag: "Users", summary: "Reset a user's two-factor codes", access: "admin",
    description: "Removes the user's two-factor codes and ends their sessions (audited). 409 for yourself.",
    params: idPathParams,
    answers: { 204: null },
    errors: [409],
  }),
  unlinkSso: operation({
    method: "delete", path: "/api/v1/users/{id}/sso", tag: "Users", summary: "Unlink a user's single sign-on account", access: "admin",
    description:
      "The account is no longer linked to its single sign-on subject (`iss` + `sub`): the next person to sign in with its verified email links it. " +
      "The user's sessions end (audited `user.sso_unlink`). An account that is not linked answers 204 too, and nothing changes.",
    params: idPathParams,
    answers: { 204: null },
  }),
};

export const tokensApi = {
  list: operation({
    method: "get", path: "/api/v1/tokens", tag: "Tokens", summary: "Your API tokens, newest first", access: "session",
    answers: { 200: z.object({ data: z.array(tokenSchema) }) },
  }),
  create: operation({
    method: "post", path: "/api/v1/tokens", tag: "Tokens", summary: "Make an API token", access: "session",
    description: "`expires_at`: a date YYYY-MM-DD (the token works to the end of that UTC day) or an ISO 8601 instant, at most 365 days ahead. The token is in this answer only.",
    body: tokenCreateSchema,
    answers: { 201: createdTokenSchema },
  }),
  revoke: operation({
    method: "delete", path: "/api/v1/tokens/{id}", tag: "Tokens", summary: "Revoke one of your tokens, at once", access: "session",
    params: idPathParams,
    answers: { 204: null },
  }),
};
