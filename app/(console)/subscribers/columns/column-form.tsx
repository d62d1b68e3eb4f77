import { useTranslations } from "next-intl";
import { buttonClass } from "@/components/ui/button-styles";
import { FIT_COLUMNS, type TableColumn, type TableSettings } from "@/lib/subscribers/columns";
import { COLUMNS } from "../subscriber-table";

const DENSITIES = { comfortable: "comfortable", compact: "compact" } as const;

/** Show or hide columns and choose the density; kept with the user (every device shows the same). */
export function ColumnForm({ settings, back }: { settings: TableSettings; back: string }) {
  // No choice yet: ticked are the columns a wide screen shows (narrower ones show fewer).
  const t = useTranslations("columns");
  const fields = useTranslations();
  const shown = (column: TableColumn) => (settings.hidden ? !settings.hidden.includes(column) : column in FIT_COLUMNS);
  return (
    <form method="post" action="/subscribers/table-settings" className="space-y-5 rounded-lg border border-slate-200 bg-white p-6 text-sm shadow-sm">
      <input type="hidden" name="back" value={back} />
      <fieldset>
        <legend className="font-medium text-slate-700">{t("show")}</legend>
        {settings.hidden ? null : <p className="mt-1 text-slate-600">{t("noneChosen")}</p>}
        <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
          {COLUMNS.map((c) => (
            <label key={c.column} className="flex items-center gap-2">
              <input type="checkbox" name="show" value={c.column} defaultChecked={shown(c.column)} className="size-4 accent-brand-600" />
              {fields(c.key)}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="font-medium text-slate-700">{t("density")}</legend>
        <div className="mt-2 flex gap-4">
          {(["comfortable", "compact"] as const).map((d) => (
            <label key={d} className="flex items-center gap-2">
              <input type="radio" name="density" value={d} defaultChecked={settings.density === d} className="accent-brand-600" />
              {t(DENSITIES[d])}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass.primary}>
          {t("apply")}
        </button>
        <button type="submit" name="reset" value="1" className={buttonClass.secondary}>
          {t("reset")}
        </button>
        <a href={back} className={buttonClass.ghost}>
          {t("cancel")}
        </a>
      </div>
    </form>
  );
}
