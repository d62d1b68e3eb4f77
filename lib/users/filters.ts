import { z } from "zod";
import { booleanParam, idParam, optionParam, pageParam, sortParam, textParam } from "@/lib/list/params";
import { ROLES } from "./schema";

// The one parser of user list queries (docs/API.md: name, email, role, active): the /users page
// and GET /api/v1/users read filters through it.

export const USER_SORT_COLUMNS = ["id", "name", "email", "role", "active", "created_at", "last_sign_in_at"] as const;

const filterShape = {
  id: idParam,
  name: textParam,
  email: textParam,
  role: optionParam(ROLES, "role"),
  active: booleanParam("active"),
};

/** The filter keys (everything but page and sort), from the schema. */
export const USER_FILTER_KEYS = Object.keys(filterShape) as (keyof typeof filterShape)[];

export const userFiltersSchema = z.object({ page: pageParam, sort: sortParam(USER_SORT_COLUMNS, "name"), ...filterShape });

export type UserFilters = z.output<typeof userFiltersSchema>;
