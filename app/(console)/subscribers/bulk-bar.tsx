import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { buttonClass } from "@/components/ui/button-styles";
import { SUBSCRIBER_ADDRESS_KEYS, SUBSCRIPTION_STATUSES } from "@/lib/subscribers/filters";
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
export async function BulkBar({ id, params, total, admin }: { id: string; params: RawParams; total: number; admin: boolean }) {
  const t = await getTranslations("bulk.bar");
  return (
    <form
      id={id}
      method="get"
      action="/subscribers/bulk"
      aria-label={t("label")}
      data-bulk-bar=""
      className="sticky bottom-0 z-20 flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm shadow-lg"
    >
      {SUBSCRIBER_ADDRESS_KEYS.flatMap((key) => {
        const value = params[key];
        return typeof value === "string" && value ? [<input key={key} type="hidden" name={key} value={value} />] : [];
      })}
      <input type="hidden" name="back" value={listAddress(params)} />
      <ClientMessages namespaces={["bulk.selection"]}>
        <SelectionCount form={id} total={total} />
      </ClientMessages>
      {/* On a phone the changes are one row that scrolls sideways, not four lines over the list. */}
      <div className="-mx-3 flex items-center gap-x-4 overflow-x-auto px-3 sm:mx-0 sm:flex-1 sm:flex-wrap sm:gap-y-2 sm:overflow-visible sm:px-0">
        <div role="group" aria-label={t("statusGroup")} className={GROUP}>
          <span aria-hidden="true" className="text-slate-500">{t("status")}</span>
          {SUBSCRIPTION_STATUSES.map((status) => (
            <button key={status} type="submit" name="change" value={`status:${status}`} className={BUTTON} aria-label={t("setStatus", { status })}>
              {t("statusName", { status })}
            </button>
          ))}
        </div>
        <div role="group" aria-label={t("mandatoryGroup")} className={GROUP}>
          <span aria-hidden="true" className="text-slate-500">{t("mandatory")}</span>
          <button type="submit" name="change" value="mandatory:true" className={BUTTON} aria-label={t("setMandatory", { value: "yes" })}>
            {t("yes")}
          </button>
          <button type="submit" name="change" value="mandatory:false" className={BUTTON} aria-label={t("setMandatory", { value: "no" })}>
            {t("no")}
          </button>
        </div>
        {admin ? (
          <button type="submit" name="change" value="delete" className={`${buttonClass.danger} shrink-0 px-2.5 py-1 sm:ms-auto`}>
            {t("delete")}
          </button>
        ) : null}
      </div>
    </form>
  );
}
