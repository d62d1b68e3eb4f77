import { z } from "zod";
import { SUBSCRIBER_FIELDS } from "./filters";

// The subscriber table's settings, per user and the same on every device (users.preferences):
// which columns are hidden, and the density of the rows. Pure: the page and the action share it.

export type TableColumn = (typeof SUBSCRIBER_FIELDS)[number];
/** The table's own column order (its COLUMNS'), status and flags early: what a view saved without `columns` shows. */
export const TABLE_COLUMNS = ["id", "first_name", "last_name", "email", "mobile", "subscription_status", "is_duplicate", "is_mandatory", "branch_name", "country_name", "travel_date", "sheet", "created_at"] as const satisfies readonly TableColumn[];
const DENSITIES = ["comfortable", "compact"] as const;
type Density = (typeof DENSITIES)[number];

export type TableSettings = { hidden: TableColumn[]; density: Density };
export const DEFAULT_TABLE_SETTINGS: TableSettings = { hidden: [], density: "comfortable" };

const stored = z
  .object({
    subscriberTable: z
      .object({
        hidden: z.array(z.enum(SUBSCRIBER_FIELDS)).max(SUBSCRIBER_FIELDS.length - 1).catch([]),
        density: z.enum(DENSITIES).catch("comfortable"),
      })
      .partial()
      .optional(),
  })
  .passthrough();

/** The table's settings from a user's stored preferences (anything unreadable is the default). */
export function tableSettings(preferences: unknown): TableSettings {
  const parsed = stored.safeParse(preferences ?? {});
  const table = parsed.success ? parsed.data.subscriberTable : undefined;
  return { hidden: table?.hidden ?? [], density: table?.density ?? "comfortable" };
}

/** The chooser's form: the columns to show (at least one), the density, or a reset. */
export function settingsFromForm(form: FormData): TableSettings {
  if (form.get("reset") !== null) return DEFAULT_TABLE_SETTINGS;
  const shown = new Set(form.getAll("show").map(String));
  const hidden = SUBSCRIBER_FIELDS.filter((c) => !shown.has(c));
  const density = form.get("density") === "compact" ? "compact" : "comfortable";
  return { hidden: hidden.length === SUBSCRIBER_FIELDS.length ? [] : hidden, density };
}
