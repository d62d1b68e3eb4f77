"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { notify } from "@/components/toast";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { buttonClass } from "@/components/ui/button-styles";
import { branchInputSchema, type BranchInput } from "@/lib/branches/schema";
import { createBranchAction, updateBranchAction } from "./actions";

export function BranchForm({ branch }: { branch?: { id: number; name: string } }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<BranchInput>({ resolver: zodResolver(branchInputSchema), defaultValues: { name: branch?.name ?? "" } });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = branch ? await updateBranchAction({ ...values, id: branch.id }) : await createBranchAction(values);
      if (result.ok) {
        notify("success", result.message ?? "Saved.");
        router.push("/branches");
        return;
      }
      for (const [field, messages] of Object.entries(result.fieldErrors ?? {})) {
        if (field === "name") setError("name", { message: messages[0] }, { shouldFocus: true });
      }
      setFormError(result.fieldErrors?.name ? null : (result.formError ?? "The branch could not be saved."));
    } catch {
      setFormError("The branch could not be saved. Check your connection and try again.");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <Field label="Name" error={errors.name?.message} hint="1–100 characters; unique, whatever the case.">
        {(props) => <input {...props} autoFocus maxLength={100} {...register("name")} />}
      </Field>
      <FormAlert message={formError} />
      <div className="flex gap-3">
        <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
          {isSubmitting ? "Saving…" : branch ? "Save changes" : "Create branch"}
        </button>
        <Link href="/branches" className={buttonClass.secondary}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
