"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Combobox, type ComboboxOption } from "@/components/ui/combobox";
import { Field } from "@/components/ui/field";
import { STATUS_OPTIONS } from "@/lib/subscribers/labels";
import { normaliseMobile } from "@/lib/subscribers/phone";
import { subscriberFormSchema, type SubscriberInput, type SubscriberValues } from "@/lib/subscribers/schema";
import { createSubscriberAction } from "../actions";
import { DuplicateNote } from "./duplicate-note";
import { useDuplicateCheck } from "./use-duplicate-check";

export type CountryChoice = ComboboxOption & { code: string };

const FIELDS = ["first_name", "last_name", "email", "mobile", "branch_id", "country_id", "travel_date", "sheet_name", "subscription_status", "is_mandatory"] as const;
type FieldName = (typeof FIELDS)[number];
const isField = (key: string): key is FieldName => (FIELDS as readonly string[]).includes(key);

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

export function SubscriberForm({ branches, countries, sheets }: { branches: ComboboxOption[]; countries: CountryChoice[]; sheets: string[] }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const codes = useMemo(() => new Map(countries.map((c) => [c.id, c.code])), [countries]);
  const schema = useMemo(() => subscriberFormSchema((id) => codes.get(id)), [codes]);
  const { warnings, check } = useDuplicateCheck();
  const { register, control, handleSubmit, setError, getValues, trigger, formState } = useForm<SubscriberInput, unknown, SubscriberValues>({
    resolver: zodResolver(schema),
    defaultValues: DEFAULTS,
  });
  const { errors, isSubmitting } = formState;

  const [countryId, mobile] = useWatch({ control, name: ["country_id", "mobile"] });
  const preview = mobile ? normaliseMobile(mobile, countryId ? codes.get(countryId) : undefined) : null;
  const askDuplicates = () => {
    const { email, mobile, country_id } = getValues();
    void check({ email, mobile, country_id });
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await createSubscriberAction(values);
      if (result.ok) {
        notify("success", result.message ?? "Subscriber created.");
        router.push("/subscribers");
        return;
      }
      const keys = Object.keys(result.fieldErrors ?? {}).filter(isField);
      keys.forEach((key, i) => setError(key, { message: result.fieldErrors?.[key]?.[0] }, { shouldFocus: i === 0 }));
      setFormError(result.formError ?? "The subscriber could not be created.");
    } catch {
      setFormError("The subscriber could not be created. Check your connection and try again.");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="First name" error={errors.first_name?.message}>
          {(props) => <input {...props} autoFocus autoComplete="off" maxLength={100} {...register("first_name")} />}
        </Field>
        <Field label="Last name" error={errors.last_name?.message}>
          {(props) => <input {...props} autoComplete="off" maxLength={100} {...register("last_name")} />}
        </Field>
      </div>
      <Field label="Email" error={errors.email?.message}>
        {(props) => <input {...props} type="email" autoComplete="off" maxLength={254} {...register("email", { onBlur: askDuplicates })} />}
      </Field>
      <DuplicateNote field="email" id={warnings.email} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Country" error={errors.country_id?.message} hint="Also used to read national mobile numbers.">
          {(props) => (
            <Controller
              control={control}
              name="country_id"
              render={({ field }) => (
                <Combobox
                  {...props}
                  listLabel="Countries"
                  placeholder="Type to search…"
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
          label="Mobile"
          error={errors.mobile?.message}
          hint={preview?.ok ? `Saved as ${preview.e164}.` : "With + and country code, or national for the chosen country."}
        >
          {(props) => <input {...props} type="tel" autoComplete="off" maxLength={32} {...register("mobile", { onBlur: askDuplicates })} />}
        </Field>
      </div>
      <DuplicateNote field="mobile" id={warnings.mobile} />
      <Field label="Branch" error={errors.branch_id?.message} hint="Optional.">
        {(props) => (
          <Controller
            control={control}
            name="branch_id"
            render={({ field }) => (
              <Combobox {...props} listLabel="Branches" placeholder="Type to search…" options={branches} value={field.value ?? null} onChange={field.onChange} onBlur={field.onBlur} />
            )}
          />
        )}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Travel date" error={errors.travel_date?.message} hint="Optional.">
          {(props) => <input {...props} type="date" {...register("travel_date")} />}
        </Field>
        <Field label="Sheet" error={errors.sheet_name?.message} hint="Optional: an existing sheet, or a new name.">
          {(props) => <input {...props} list="sheet-names" autoComplete="off" maxLength={100} {...register("sheet_name")} />}
        </Field>
        <datalist id="sheet-names">
          {sheets.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <Field label="Subscription status" error={errors.subscription_status?.message}>
          {(props) => (
            <select {...props} {...register("subscription_status")}>
              {STATUS_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700 sm:pt-7">
          <input type="checkbox" className="size-4 rounded border-slate-300 accent-brand-600" {...register("is_mandatory")} />
          Mandatory subscription
        </label>
      </div>
      {formError ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {formError}
        </p>
      ) : null}
      <div className="flex gap-3">
        <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
          {isSubmitting ? "Creating…" : "Create subscriber"}
        </button>
        <Link href="/subscribers" className={buttonClass.secondary}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
