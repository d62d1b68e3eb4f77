import type { ListFilters } from "@/components/list/filter-bar";
import { USER_FILTER_KEYS } from "@/lib/users/filters";

/** The user list's toolbar: the name in front, docs/API.md's other filters behind Filters. */
export const USER_TOOLBAR: ListFilters = {
  search: { kind: "text", name: "name", label: "Name", placeholder: "Search names (/)" },
  fields: [
    { kind: "text", name: "email", label: "Email", placeholder: "Contains…" },
    {
      kind: "select",
      name: "role",
      label: "Role",
      options: [
        { value: "admin", label: "Administrator" },
        { value: "staff", label: "Staff" },
      ],
    },
    {
      kind: "select",
      name: "active",
      label: "Active",
      options: [
        { value: "true", label: "Active" },
        { value: "false", label: "Deactivated" },
      ],
    },
    { kind: "text", name: "id", label: "ID", numeric: true, placeholder: "Exact id" },
  ],
  keys: USER_FILTER_KEYS,
};
