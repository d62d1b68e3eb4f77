import { z } from "zod";
import { SUBSCRIBER_FIELDS } from "./filters";

// The subscriber table's settings, per user and the same on every device (users.preferences):
// which columns are hidden (or none chosen: the columns that fit the screen), and the density of
// the rows. Pure: the page and the action share it.

export type TableColumn = (typeof SUBSCRIBER_FIELDS)[number];
/** The table's own column order (its COLUMNS'), status and flags early: what a view saved without `columns` shows. */
export const TABLE_COLUMNS = ["id", "first_name", "last_name", "email", "mobile", "subscription_status", "is_duplicate", "is_mandatory", "branch_name", "country_name", "travel_date", "sheet", "created_at"] as const satisfies readonly TableColumn[];
const DENSITIES = ["comfortable", "compact"] as const;
type Density = (typeof DENSITIES)[number];

/**
 * With no columns chosen (by the user or the address), the columns shown and the width each needs,
 * as a breakpoint: below `md` a phone's cards, then more columns as the screen widens, as many as
 * fit the console's widest (1280 px) with typical data (docs/decisions/0043-columns-per-width.md).
 * The rest are a choice away.
 */
export const FIT_COLUMNS = {
  first_name: "md",
  last_name: "md",
  email: "md",
  subscription_status: "md",
  branch_name: "lg",
  mobile: "xl",
  country_name: "xl",
} as const satisfies Partial<Record<TableColumn, "md" | "lg" | "xl">>;

/** `hidden: null`: no choice made, the columns that fit the screen (FIT_COLUMNS). */
export type TableSettings = { hidden: TableColumn[] | null; density: Density };
export const DEFAULT_TABLE_SETTINGS: TableSettings = { hidden: null, density: "comfortable" };

const stored = z
  .object({
    subscriberTable: z
      .object({
        hidden: z.array(z.enum(SUBSCRIBER_FIELDS)).max(SUBSCRIBER_FIELDS.length - 1).nullable().catch(null),
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
  return { hidden: table?.hidden ?? null, density: table?.density ?? "comfortable" };
}

/** The chooser's form: the columns to show (none ticked: no choice, those that fit), the density; or a reset to no choice. */
export function settingsFromForm(form: FormData): TableSettings {
  if (form.get("reset") !== null) return DEFAULT_TABLE_SETTINGS;
  const density = form.get("density") === "compact" ? "compact" : "comfortable";
  const shown = new Set(form.getAll("show").map(String));
  const hidden = SUBSCRIBER_FIELDS.filter((c) => !shown.has(c));
  return { hidden: hidden.length === SUBSCRIBER_FIELDS.length ? null : hidden, density };
}
