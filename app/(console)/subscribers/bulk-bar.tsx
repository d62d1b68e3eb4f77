import { buttonClass } from "@/components/ui/button-styles";
import { formatCount } from "@/lib/format";
import { SUBSCRIBER_ADDRESS_KEYS } from "@/lib/subscribers/filters";
import { STATUS_OPTIONS } from "@/lib/subscribers/labels";
import type { RawParams } from "@/lib/list/params";
import { listAddress } from "@/lib/subscribers/back";

// On a phone the menu takes what the buttons leave, and they keep their text on one line.
const SELECT = "field-input w-auto min-w-0 flex-1 px-2.5 py-1.5 sm:max-w-[9.5rem] sm:flex-none";
const BUTTON = `${buttonClass.secondary} shrink-0 whitespace-nowrap px-2.5 py-1.5`;

/**
 * A plain GET to the confirmation page, which counts and asks before anything changes: no script
 * needed. It carries the filters it changes by, and the list's whole address to go back to.
 */
export function BulkBar({ id, params, total, admin }: { id: string; params: RawParams; total: number; admin: boolean }) {
  return (
    <form id={id} method="get" action="/subscribers/bulk" aria-label="Change many subscribers" className="flex items-center gap-2 text-sm">
      {SUBSCRIBER_ADDRESS_KEYS.flatMap((key) => {
        const value = params[key];
        return typeof value === "string" && value ? [<input key={key} type="hidden" name={key} value={value} />] : [];
      })}
      <input type="hidden" name="back" value={listAddress(params)} />
      <label className="flex min-w-0 flex-1 sm:block sm:flex-none">
        <span className="sr-only">Change</span>
        <select name="change" required defaultValue="" className={SELECT}>
          <option value="" disabled>
            Change…
          </option>
          <optgroup label="Set the status">
            {STATUS_OPTIONS.map((o) => (
              <option key={o.value} value={`status:${o.value}`}>
                {`Status: ${o.label}`}
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
      <button type="submit" className={BUTTON} aria-label="Change the selected subscribers…">
        Selected…
      </button>
      <button type="submit" name="scope" value="all" className={BUTTON} aria-label={`Change all ${formatCount(total)} subscribers matching the filters…`}>
        {`All ${formatCount(total)}…`}
      </button>
    </form>
  );
}
