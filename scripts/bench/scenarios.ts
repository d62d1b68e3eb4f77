// What the benchmark measures: each scenario is one list query, asked of the HTML page, of the
// JSON API and (the floor) of the database itself with the SQL the page runs.

export type Scenario = {
  id: string;
  title: string;
  /** `duplicates`: the duplicates review (/subscribers/duplicates and its API). */
  resource: "subscribers" | "branches" | "duplicates";
  /** The query string, the same on the page, the API and for the floor's SQL. */
  query: string;
};

export const SCENARIOS: Scenario[] = [
  { id: "first-page", title: "First page, unfiltered", resource: "subscribers", query: "" },
  // A surname fragment, as someone looking for a person types it (Miller, Milligan…: 0.7% of rows).
  { id: "name-contains", title: "Last name contains “mill”", resource: "subscribers", query: "last_name=mill" },
  // A broad three-letter fragment (Maria, Mark, Omar…: 2.9% of rows), the trigram index's worst useful case.
  { id: "name-contains-broad", title: "First name contains “mar”", resource: "subscribers", query: "first_name=mar" },
  {
    id: "status-flags",
    title: "Status active, not duplicate, mandatory",
    resource: "subscribers",
    query: "subscription_status=active&is_duplicate=false&is_mandatory=true",
  },
  { id: "created-range", title: "Created in March 2026", resource: "subscribers", query: "created_from=2026-03-01&created_to=2026-03-31" },
  { id: "country-by-last-name", title: "Country “Ireland”, sorted by last name", resource: "subscribers", query: "country_name=Ireland&sort=last_name" },
  // The middle of a million rows (the worst depth: as far from either end). Smaller data sets
  // (the embedded run's 100,000) take their own middle: see scenariosFor.
  { id: "deep-page", title: "Page 50,000, unfiltered", resource: "subscribers", query: "page=50000" },
  { id: "branches", title: "Branches list", resource: "branches", query: "" },
  // The duplicates review: groups found from the flagged rows (docs/decisions/0032-duplicates-decided-in-one-place.md).
  { id: "duplicates", title: "Duplicate groups, first page", resource: "duplicates", query: "" },
  { id: "duplicates-email", title: "Duplicate groups sharing an email, page 3", resource: "duplicates", query: "rule=email&page=3" },
  { id: "duplicates-search", title: "Duplicate groups with a member “smith”", resource: "duplicates", query: "q=smith" },
];

/** The scenarios for a data set of `subscribers` rows: the deep page is its middle page at most. */
export function scenariosFor(subscribers: number, all: Scenario[] = SCENARIOS): Scenario[] {
  const middle = Math.max(1, Math.ceil(subscribers / 10 / 2));
  return all.map((s) => {
    if (s.id !== "deep-page" || middle >= 50_000) return s;
    return { ...s, title: `Page ${middle.toLocaleString("en-GB")} (the middle), unfiltered`, query: `page=${middle}` };
  });
}

export type Target = "api" | "html";

export function targetPath(s: Scenario, target: Target): string {
  const resource = s.resource === "duplicates" ? "subscribers/duplicates" : s.resource;
  const base = target === "api" ? `/api/v1/${resource}` : `/${resource}`;
  return s.query ? `${base}?${s.query}` : base;
}

/** `--scenarios a,b` keeps those (by id); unknown ids are an error. */
export function pickScenarios(list: string | undefined, all: Scenario[] = SCENARIOS): Scenario[] {
  if (!list) return all;
  const ids = list.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !all.some((s) => s.id === id));
  if (unknown.length) throw new Error(`Unknown scenario(s): ${unknown.join(", ")}. Known: ${all.map((s) => s.id).join(", ")}.`);
  return all.filter((s) => ids.includes(s.id));
}
