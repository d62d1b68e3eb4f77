import type { ListFilters } from "@/components/list/filter-bar";
import { USER_FILTER_KEYS } from "@/lib/users/filters";

type Key =
  | "table.name" | "table.email" | "table.role" | "table.active" | "table.id"
  | "role.admin" | "role.staff" | "state.active" | "state.deactivated"
  | "toolbar.search" | "toolbar.contains" | "toolbar.exactId";

/**
 * The user list's toolbar: the name in front, docs/API.md's other filters behind Filters. Its
 * words are the page's: `t` is getTranslations("users") there.
 */
export function userToolbar(t: (key: Key) => string): ListFilters {
  return {
    search: { kind: "text", name: "name", label: t("table.name"), placeholder: t("toolbar.search") },
    fields: [
      { kind: "text", name: "email", label: t("table.email"), placeholder: t("toolbar.contains") },
      {
        kind: "select",
        name: "role",
        label: t("table.role"),
        options: [
          { value: "admin", label: t("role.admin") },
          { value: "staff", label: t("role.staff") },
        ],
      },
      {
        kind: "select",
        name: "active",
        label: t("table.active"),
        options: [
          { value: "true", label: t("state.active") },
          { value: "false", label: t("state.deactivated") },
        ],
      },
      { kind: "text", name: "id", label: t("table.id"), numeric: true, placeholder: t("toolbar.exactId") },
    ],
    keys: USER_FILTER_KEYS,
  };
}
