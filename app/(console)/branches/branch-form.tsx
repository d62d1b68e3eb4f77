"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { notify } from "@/components/toast";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { buttonClass } from "@/components/ui/button-styles";
import { useActionForm } from "@/components/ui/use-action-form";
import { branchInputSchema } from "@/lib/branches/schema";
import { createBranchAction, updateBranchAction } from "./actions";

export function BranchForm({ branch }: { branch?: { id: number; name: string } }) {
  const t = useTranslations("branches");
  const router = useRouter();
  const { register, errors, isSubmitting, formError, onSubmit } = useActionForm(
    { resolver: zodResolver(branchInputSchema), defaultValues: { name: branch?.name ?? "" } },
    {
      fields: ["name"],
      failed: t("form.failed"),
      send: (values) => (branch ? updateBranchAction({ ...values, id: branch.id }) : createBranchAction(values)),
      done: (result) => {
        notify("success", result.message ?? t("form.saved"));
        router.push("/branches");
      },
    },
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <Field label={t("table.name")} error={errors.name?.message} hint={t("form.nameHint")}>
        {(props) => <input {...props} autoFocus maxLength={100} {...register("name")} />}
      </Field>
      <FormAlert message={formError} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
          {isSubmitting ? t("form.saving") : branch ? t("form.saveChanges") : t("form.create")}
        </button>
        <Link href="/branches" className={buttonClass.secondary}>
          {t("form.cancel")}
        </Link>
      </div>
    </form>
  );
}
