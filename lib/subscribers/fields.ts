// Each subscriber field once: its name in docs/API.md, how the console labels it, and whether a
// person edits it, an import fills it and a merge chooses it. The table, the filters, the record
// and its history, the import's mapping and the merge read names and labels from here.

type About = { label: string; edit: boolean; import: boolean; merge: boolean };

/** In the order a form, an import mapping and a merge list them. */
export const FIELD = {
  first_name: { label: "First name", edit: true, import: true, merge: true },
  last_name: { label: "Last name", edit: true, import: true, merge: true },
  email: { label: "Email", edit: true, import: true, merge: true },
  mobile: { label: "Mobile", edit: true, import: true, merge: true },
  branch_name: { label: "Branch", edit: true, import: true, merge: true },
  country_name: { label: "Country", edit: true, import: true, merge: true },
  travel_date: { label: "Travel date", edit: true, import: true, merge: true },
  sheet: { label: "Sheet", edit: true, import: true, merge: true },
  subscription_status: { label: "Status", edit: true, import: true, merge: true },
  is_mandatory: { label: "Mandatory", edit: true, import: true, merge: true },
  // Decided by the server.
  id: { label: "ID", edit: false, import: false, merge: false },
  is_duplicate: { label: "Duplicate", edit: false, import: false, merge: false },
  created_at: { label: "Created", edit: false, import: false, merge: false },
  updated_at: { label: "Updated", edit: false, import: false, merge: false },
} as const satisfies Record<string, About>;

export type FieldName = keyof typeof FIELD;
type Having<P extends "edit" | "import" | "merge"> = { [F in FieldName]: (typeof FIELD)[F][P] extends true ? F : never }[FieldName];

const having = <P extends "edit" | "import" | "merge">(p: P) =>
  (Object.keys(FIELD) as FieldName[]).filter((f): f is Having<P> => FIELD[f][p]) as [Having<P>, ...Having<P>[]];

export type ImportField = Having<"import">;
export const IMPORT_FIELDS: readonly [ImportField, ...ImportField[]] = having("import");
export type MergeField = Having<"merge">;
export const MERGE_FIELDS: readonly [MergeField, ...MergeField[]] = having("merge");

/** A field's label; a name that is no field (an old audit entry's, say) reads as itself. */
export const fieldLabel = (name: string): string => (Object.hasOwn(FIELD, name) ? FIELD[name as FieldName].label : name);
