import { buttonClass } from "@/components/ui/button-styles";
import { SUBSCRIBER_ADDRESS_KEYS } from "@/lib/subscribers/filters";
import { STATUS_OPTIONS } from "@/lib/subscribers/labels";
import type { RawParams } from "@/lib/list/params";
import { listAddress } from "@/lib/subscribers/back";
import { SelectionCount } from "./selection-count";

const BUTTON = `${buttonClass.secondary} whitespace-nowrap px-2.5 py-1`;
const GROUP = "flex shrink-0 items-center gap-1.5";

/**
 * The bulk toolbar: shown once a row is selected (app/globals.css, so also without script), it
 * names each change as a button. A plain GET to the confirmation page, which counts and asks
 * before anything changes; it carries the filters it changes by, and the list's whole address to
 * go back to. Deletion is offered to administrators, and checked again by the server.
 */
export function BulkBar({ id, params, total, admin }: { id: string; params: RawParams; total: number; admin: boolean }) {
  return (
    <form
      id={id}
      method="get"
      action="/subscribers/bulk"
      aria-label="Change the selected subscribers"
      data-bulk-bar=""
      className="sticky bottom-0 z-20 flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm shadow-lg"
    >
      {SUBSCRIBER_ADDRESS_KEYS.flatMap((key) => {
        const value = params[key];
        return typeof value === "string" && value ? [<input key={key} type="hidden" name={key} value={value} />] : [];
      })}
      <input type="hidden" name="back" value={listAddress(params)} />
      <SelectionCount form={id} total={total} />
      {/* On a phone the changes are one row that scrolls sideways, not four lines over the list. */}
      <div className="-mx-3 flex items-center gap-x-4 overflow-x-auto px-3 sm:mx-0 sm:flex-1 sm:flex-wrap sm:gap-y-2 sm:overflow-visible sm:px-0">
        <div role="group" aria-label="Set the status" className={GROUP}>
          <span aria-hidden="true" className="text-slate-500">Status</span>
          {STATUS_OPTIONS.map((o) => (
            <button key={o.value} type="submit" name="change" value={`status:${o.value}`} className={BUTTON} aria-label={`Set the status to ${o.label}`}>
              {o.label}
            </button>
          ))}
        </div>
        <div role="group" aria-label="Set mandatory" className={GROUP}>
          <span aria-hidden="true" className="text-slate-500">Mandatory</span>
          <button type="submit" name="change" value="mandatory:true" className={BUTTON} aria-label="Set mandatory to Yes">
            Yes
          </button>
          <button type="submit" name="change" value="mandatory:false" className={BUTTON} aria-label="Set mandatory to No">
            No
          </button>
        </div>
        {admin ? (
          <button type="submit" name="change" value="delete" className={`${buttonClass.danger} shrink-0 px-2.5 py-1 sm:ms-auto`}>
            Delete
          </button>
        ) : null}
      </div>
    </form>
  );
}
