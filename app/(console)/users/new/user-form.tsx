"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { PasswordStrength } from "@/components/password-strength";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { useActionForm } from "@/components/ui/use-action-form";
import { userCreateSchema } from "@/lib/users/schema";
import { createUserAction } from "../actions";
import { BranchPicker, type BranchChoice } from "../branch-picker";
import { LinkDialog } from "../link-dialog";

/** `branches`: the choices of a staff member's branches (an administrator always sees every branch). */
export function UserForm({ branches }: { branches: BranchChoice[] }) {
  const router = useRouter();
  const [how, setHow] = useState<"link" | "password">("link");
  const [made, setMade] = useState<{ url: string; name: string } | null>(null);
  const { register, control, errors, isSubmitting, formError, onSubmit } = useActionForm(
    {
      resolver: zodResolver(userCreateSchema),
      defaultValues: { name: "", email: "", role: "staff", password: "", branch_ids: null },
      shouldUnregister: true, // a password typed, then "link" chosen, is not sent nor checked; nor branches once "Administrator" is chosen
    },
    {
      fields: ["name", "email", "role", "password", "branch_ids"],
      failed: "The user could not be created.",
      send: (values) => createUserAction({ ...values, password: how === "password" ? values.password : undefined }),
      done: (result, values) => {
        notify("success", result.message ?? "User created.");
        if (result.data.setPasswordUrl) setMade({ url: result.data.setPasswordUrl, name: values.name });
        else router.push("/users");
      },
    },
  );
  const [password, name, email, role] = useWatch({ control, name: ["password", "name", "email", "role"] });

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <Field label="Name" error={errors.name?.message}>
          {(props) => <input {...props} autoFocus maxLength={100} autoComplete="off" {...register("name")} />}
        </Field>
        <Field label="Email" error={errors.email?.message} hint="They sign in with it.">
          {(props) => <input {...props} type="email" maxLength={254} autoComplete="off" {...register("email")} />}
        </Field>
        <Field label="Role" error={errors.role?.message} hint="Administrators also manage branches, users and the audit log.">
          {(props) => (
            <select {...props} {...register("role")}>
              <option value="staff">Staff</option>
              <option value="admin">Administrator</option>
            </select>
          )}
        </Field>
        {role === "staff" ? (
          <Controller
            control={control}
            name="branch_ids"
            render={({ field, fieldState }) => (
              <BranchPicker
                branches={branches}
                value={field.value ?? null}
                onChange={field.onChange}
                error={fieldState.error?.type === "too_small" ? "Tick at least one branch, or choose every branch." : fieldState.error?.message}
              />
            )}
          />
        ) : null}
        <fieldset>
          <legend className="block text-sm font-medium text-slate-700">Password</legend>
          <div className="mt-2 space-y-2 text-sm">
            <label className="flex items-start gap-2">
              <input type="radio" name="how" value="link" checked={how === "link"} onChange={() => setHow("link")} className="mt-0.5" />
              <span>Make a one-time set-password link for them (recommended; shown once, valid 24 hours)</span>
            </label>
            <label className="flex items-start gap-2">
              <input type="radio" name="how" value="password" checked={how === "password"} onChange={() => setHow("password")} className="mt-0.5" />
              <span>Choose their first password myself</span>
            </label>
          </div>
        </fieldset>
        {how === "password" ? (
          <div>
            <Field label="Initial password" error={errors.password?.message} hint="At least 12 characters, not a common password.">
              {(props) => <input {...props} type="password" autoComplete="new-password" maxLength={200} {...register("password")} />}
            </Field>
            <PasswordStrength password={password ?? ""} userInputs={[name, email]} />
          </div>
        ) : null}
        <FormAlert message={formError} />
        <div className="flex gap-3">
          <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
            {isSubmitting ? "Creating…" : "Create user"}
          </button>
          <Link href="/users" className={buttonClass.secondary}>
            Cancel
          </Link>
        </div>
      </form>
      <LinkDialog url={made?.url ?? null} name={made?.name ?? ""} onClose={() => router.push("/users")} />
    </>
  );
}
