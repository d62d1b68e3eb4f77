import { buttonClass } from "@/components/ui/button-styles";
import { formatCount } from "@/lib/format";
import { SUBSCRIBER_FILTER_KEYS } from "@/lib/subscribers/filters";
import { STATUS_OPTIONS } from "@/lib/subscribers/labels";
import type { RawParams } from "@/lib/list/params";

// On a phone the bar has a line of its own: the menu takes what the two buttons leave, and the
// buttons keep their text on one line (a count of millions included).
const SELECT =
  "min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20 sm:max-w-[9.5rem] sm:flex-none";

/**
 * The bulk change bar: what to change, for the rows ticked in the table (their boxes belong to
 * this form) or for every subscriber matching the filters. A plain GET to the confirmation page
 * (/subscribers/bulk), which counts and asks before anything changes: it works without script.
 */
export function BulkBar({ id, params, total, admin }: { id: string; params: RawParams; total: number; admin: boolean }) {
  return (
    <form id={id} method="get" action="/subscribers/bulk" aria-label="Change many subscribers" className="flex items-center gap-2 text-sm">
      {SUBSCRIBER_FILTER_KEYS.map((key) =>
        typeof params[key] === "string" && params[key] ? <input key={key} type="hidden" name={key} value={params[key] as string} /> : null,
      )}
      <label className="flex min-w-0 flex-1 sm:block sm:flex-none">
        <span className="sr-only">Change</span>
        <select name="change" required defaultValue="" className={SELECT}>
          <option value="" disabled>
            Change…
          </option>
          <optgroup label="Set the status">
            {STATUS_OPTIONS.map((o) => (
              <option key={o.value} value={`status:${o.value}`}>
                Status: {o.label}
              </option>
            ))}
          </optgroup>
          <optgroup label="Mandatory">
            <option value="mandatory:true">Mandatory: yes</option>
            <option value="mandatory:false">Mandatory: no</option>
          </optgroup>
          {admin ? (
            <optgroup label="Administrators">
              <option value="delete">Delete</option>
            </optgroup>
          ) : null}
        </select>
      </label>
      <button type="submit" className={`${buttonClass.secondary} shrink-0 whitespace-nowrap px-2.5 py-1.5`} aria-label="Change the selected subscribers…">
        Selected…
      </button>
      <button type="submit" name="scope" value="all" className={`${buttonClass.secondary} shrink-0 whitespace-nowrap px-2.5 py-1.5`} aria-label={`Change all ${formatCount(total)} subscribers matching the filters…`}>
        All {formatCount(total)}…
      </button>
    </form>
  );
}
