"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { FIELD } from "@/lib/subscribers/fields";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Combobox, type ComboboxOption } from "@/components/ui/combobox";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { useActionForm } from "@/components/ui/use-action-form";
import { statusOptions } from "@/lib/subscribers/labels";
import { normaliseMobile } from "@/lib/subscribers/phone";
import type { SubscriberRecordBody } from "@/lib/subscribers/record";
import { subscriberFormSchema, type SubscriberInput } from "@/lib/subscribers/schema";
import { ConflictView, sameValue, type Conflict } from "./conflict-view";
import { createSubscriberAction, updateSubscriberAction } from "./actions";
import { DuplicateNote } from "./duplicate-note";
import { useDuplicateCheck } from "./use-duplicate-check";

export type CountryChoice = ComboboxOption & { code: string };

const FIELDS = ["first_name", "last_name", "email", "mobile", "branch_id", "country_id", "travel_date", "sheet_name", "subscription_status", "is_mandatory"] as const;

const DEFAULTS: SubscriberInput = {
  first_name: "",
  last_name: "",
  email: "",
  mobile: "",
  branch_id: null,
  country_id: null,
  travel_date: "",
  sheet_name: "",
  subscription_status: "pending",
  is_mandatory: false,
};

/** A subscriber to edit, with the version its fields were read at. */
/** `record`: the record page to return to (with the list's address it was opened from). */
export type Editing = { id: number; record: string; version: string; values: SubscriberInput; timeZone: string };

/** The form's own spelling of a subscriber's fields (empty strings, not nulls, in text inputs). */
const toForm = (v: SubscriberInput): SubscriberInput => ({ ...v, travel_date: v.travel_date ?? "", sheet_name: v.sheet_name ?? "" });

export function SubscriberForm({
  branches,
  countries,
  sheets,
  editing,
  branchRequired = false,
}: {
  branches: ComboboxOption[];
  countries: CountryChoice[];
  sheets: string[];
  editing?: Editing;
  /** A user limited to some branches gives every subscriber one of them; with one only, it is chosen for them. */
  branchRequired?: boolean;
}) {
  const router = useRouter();
  const t = useTranslations("subscribers.form");
  // Field labels and statuses (the `fields` and `subscribers.status` groups the page hands over).
  const all = useTranslations();
  // Editing: the version the form's values stand on, and someone else's newer version when a save found one.
  const [version, setVersion] = useState(editing?.version ?? "");
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const codes = useMemo(() => new Map(countries.map((c) => [c.id, c.code])), [countries]);
  const schema = useMemo(() => subscriberFormSchema((id) => codes.get(id)), [codes]);
  const { warnings, check } = useDuplicateCheck();
  const { register, control, getValues, trigger, reset, errors, isSubmitting, formError, setFormError, onSubmit } = useActionForm(
    { resolver: zodResolver(schema), defaultValues: editing ? toForm(editing.values) : { ...DEFAULTS, branch_id: branchRequired && branches.length === 1 ? branches[0]!.id : null } },
    {
      fields: FIELDS,
      failed: editing ? t("saveFailed") : t("createFailed"),
      send: (values) => (editing ? updateSubscriberAction({ ...values, id: editing.id, version }) : createSubscriberAction(values)),
      done: (result) => {
        notify("success", result.message ?? t("saved"));
        router.push(editing ? editing.record : "/subscribers");
        router.refresh();
      },
      refused: (result, values) => {
        const theirs = result.details as { current?: SubscriberRecordBody; editable?: SubscriberInput } | undefined;
        if (!editing || !theirs?.current || !theirs.editable) return false;
        setConflict({ mine: values, theirs: theirs.current, theirsEditable: theirs.editable });
        return true;
      },
    },
  );

  const [countryId, mobile] = useWatch({ control, name: ["country_id", "mobile"] });
  const preview = mobile ? normaliseMobile(mobile, countryId ? codes.get(countryId) : undefined) : null;
  const askDuplicates = () => {
    const { email, mobile, country_id } = getValues();
    void check({ email, mobile, country_id, before_id: editing?.id ?? null });
  };

  /** Their version, with the fields this user changed put back on top: check, then save. */
  const keepMine = () => {
    if (!conflict || !editing) return;
    const merged = { ...conflict.theirsEditable };
    for (const key of FIELDS) {
      if (!sameValue(conflict.mine[key], editing.values[key])) (merged as Record<string, unknown>)[key] = conflict.mine[key];
    }
    reset(toForm(merged));
    setVersion(conflict.theirs.updated_at);
    setConflict(null);
    setFormError(t("theirsLoaded"));
  };
  const takeTheirs = () => {
    if (!conflict) return;
    reset(toForm(conflict.theirsEditable));
    setVersion(conflict.theirs.updated_at);
    setConflict(null);
    setFormError(null);
  };

  if (conflict && editing) {
    const names = {
      country: (id: number) => countries.find((c) => c.id === id)?.name,
      branch: (id: number) => branches.find((b) => b.id === id)?.name,
    };
    return <ConflictView conflict={conflict} original={editing.values} names={names} timeZone={editing.timeZone} onKeepMine={keepMine} onTakeTheirs={takeTheirs} />;
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label={all(FIELD.first_name.key)} error={errors.first_name?.message}>
          {(props) => <input {...props} autoFocus autoComplete="off" maxLength={100} {...register("first_name")} />}
        </Field>
        <Field label={all(FIELD.last_name.key)} error={errors.last_name?.message}>
          {(props) => <input {...props} autoComplete="off" maxLength={100} {...register("last_name")} />}
        </Field>
      </div>
      <Field label={all(FIELD.email.key)} error={errors.email?.message}>
        {(props) => <input {...props} type="email" autoComplete="off" maxLength={254} {...register("email", { onBlur: askDuplicates })} />}
      </Field>
      <DuplicateNote field="email" id={warnings.email} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label={all(FIELD.country_name.key)} error={errors.country_id?.message} hint={t("countryHint")}>
          {(props) => (
            <Controller
              control={control}
              name="country_id"
              render={({ field }) => (
                <Combobox
                  {...props}
                  listLabel={t("countries")}
                  placeholder={t("typeToSearch")}
                  options={countries}
                  value={field.value ?? null}
                  onChange={(id) => {
                    field.onChange(id);
                    if (!getValues("mobile")) return;
                    askDuplicates(); // a national number reads differently now
                    if (errors.mobile) void trigger("mobile");
                  }}
                  onBlur={field.onBlur}
                />
              )}
            />
          )}
        </Field>
        <Field
          label={all(FIELD.mobile.key)}
          error={errors.mobile?.message}
          hint={preview?.ok ? t("savedAs", { mobile: preview.e164 }) : t("mobileHint")}
        >
          {(props) => <input {...props} type="tel" autoComplete="off" maxLength={32} {...register("mobile", { onBlur: askDuplicates })} />}
        </Field>
      </div>
      <DuplicateNote field="mobile" id={warnings.mobile} />
      <Field label={all(FIELD.branch_name.key)} error={errors.branch_id?.message} hint={branchRequired ? t("branchRequired") : t("optional")}>
        {(props) => (
          <Controller
            control={control}
            name="branch_id"
            render={({ field }) => (
              <Combobox {...props} listLabel={t("branches")} placeholder={t("typeToSearch")} options={branches} value={field.value ?? null} onChange={field.onChange} onBlur={field.onBlur} />
            )}
          />
        )}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label={all(FIELD.travel_date.key)} error={errors.travel_date?.message} hint={t("optional")}>
          {(props) => <input {...props} type="date" {...register("travel_date")} />}
        </Field>
        <Field label={all(FIELD.sheet.key)} error={errors.sheet_name?.message} hint={t("sheetHint")}>
          {(props) => <input {...props} list="sheet-names" autoComplete="off" maxLength={100} {...register("sheet_name")} />}
        </Field>
        <datalist id="sheet-names">
          {sheets.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <Field label={t("status")} error={errors.subscription_status?.message}>
          {(props) => (
            <select {...props} {...register("subscription_status")}>
              {statusOptions(all).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700 sm:pt-7">
          <input type="checkbox" className="size-4 rounded border-slate-300 accent-brand-600" {...register("is_mandatory")} />
          {t("mandatory")}
        </label>
      </div>
      <FormAlert message={formError} className="rounded-md bg-red-50 px-3 py-2" />
      <div className="flex gap-3">
        <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
          {isSubmitting ? (editing ? t("saving") : t("creating")) : editing ? t("save") : t("create")}
        </button>
        <Link href={editing ? editing.record : "/subscribers"} className={buttonClass.secondary}>
          {t("cancel")}
        </Link>
      </div>
    </form>
  );
}
