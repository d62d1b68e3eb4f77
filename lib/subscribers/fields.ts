// Each subscriber field once: its name in docs/API.md, how the console labels it, and whether a
// person edits it, an import fills it and a merge chooses it. The table, the filters, the record
// and its history, the import's mapping and the merge read names and labels from here.
// `label` is the English label (an import's header matching, English-only text); `key` names the
// label in the message catalogues, which pages show in the reader's language (labelField).

type About = { label: string; key: `fields.${string}`; edit: boolean; import: boolean; merge: boolean };

/** In the order a form, an import mapping and a merge list them. */
export const FIELD = {
  first_name: { label: "First name", key: "fields.firstName", edit: true, import: true, merge: true },
  last_name: { label: "Last name", key: "fields.lastName", edit: true, import: true, merge: true },
  email: { label: "Email", key: "fields.email", edit: true, import: true, merge: true },
  mobile: { label: "Mobile", key: "fields.mobile", edit: true, import: true, merge: true },
  branch_name: { label: "Branch", key: "fields.branch", edit: true, import: true, merge: true },
  country_name: { label: "Country", key: "fields.country", edit: true, import: true, merge: true },
  travel_date: { label: "Travel date", key: "fields.travelDate", edit: true, import: true, merge: true },
  sheet: { label: "Sheet", key: "fields.sheet", edit: true, import: true, merge: true },
  subscription_status: { label: "Status", key: "fields.status", edit: true, import: true, merge: true },
  is_mandatory: { label: "Mandatory", key: "fields.mandatory", edit: true, import: true, merge: true },
  // Decided by the server.
  id: { label: "ID", key: "fields.id", edit: false, import: false, merge: false },
  is_duplicate: { label: "Duplicate", key: "fields.duplicate", edit: false, import: false, merge: false },
  created_at: { label: "Created", key: "fields.created", edit: false, import: false, merge: false },
  updated_at: { label: "Updated", key: "fields.updated", edit: false, import: false, merge: false },
} as const satisfies Record<string, About>;

export type FieldName = keyof typeof FIELD;
type Having<P extends "edit" | "import" | "merge"> = { [F in FieldName]: (typeof FIELD)[F][P] extends true ? F : never }[FieldName];

const having = <P extends "edit" | "import" | "merge">(p: P) =>
  (Object.keys(FIELD) as FieldName[]).filter((f): f is Having<P> => FIELD[f][p]) as [Having<P>, ...Having<P>[]];

export type ImportField = Having<"import">;
export const IMPORT_FIELDS: readonly [ImportField, ...ImportField[]] = having("import");
export type MergeField = Having<"merge">;
export const MERGE_FIELDS: readonly [MergeField, ...MergeField[]] = having("merge");

export const isField = (name: string): name is FieldName => Object.hasOwn(FIELD, name);

/** A field's English label; a name that is no field (an old audit entry's, say) reads as itself. */
export const fieldLabel = (name: string): string => (isField(name) ? FIELD[name].label : name);

/** The catalogue key of a field's label: `t(FIELD_KEY)` with a translator of the whole catalogue. */
export type FieldLabelKey = (typeof FIELD)[FieldName]["key"];

/**
 * A field's label in the reader's language, with a translator of the whole catalogue
 * (`await getTranslations()` on the server, `useTranslations()` in a client component handed the
 * `fields` namespace); a name that is no field reads as itself.
 */
export const labelField = (t: (key: FieldLabelKey) => string, name: string): string => (isField(name) ? t(FIELD[name].key) : name);
