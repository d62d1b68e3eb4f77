"use client";

import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import type { PersonCounts } from "@/lib/people/find";
import { erasePersonAction } from "../actions";

const records = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** Administrators only (the action checks it): the confirmation names what goes, how many records, and that it cannot be undone. */
export function ErasePersonButton({ id, name, email, mobile, counts }: { id: number; name: string; email: string; mobile: string; counts: PersonCounts }) {
  const where = [
    counts.live ? records(counts.live, "subscriber record") : null,
    counts.trash ? `${records(counts.trash, "record")} in the trash` : null,
    counts.merged ? `${records(counts.merged, "record")} merged away` : null,
  ].filter(Boolean);
  return (
    <ConfirmActionButton
      label="Erase this person…"
      className={buttonClass.danger}
      title={`Erase ${name} everywhere?`}
      confirmLabel={`Erase ${records(counts.total, "record")}`}
      run={() => erasePersonAction({ id })}
      done="Person erased."
      failed="The person could not be erased."
      then={(_result, router) => {
        router.push("/subscribers");
        router.refresh();
      }}
    >
      <span className="block">
        Every record sharing <bdi>{email}</bdi> or <span className="font-mono">{mobile}</span> is erased: {where.join(", ")}, {records(counts.total, "record")} in all.
      </span>
      <span className="mt-2 block">
        Their values go from the history, merges, bulk changes, saved views&apos; and exports&apos; filters, import previews and rejected-row files, and the
        audit log (its entries stay, without them). Export files holding them are withdrawn; their owners are told why.
      </span>
      <span className="mt-2 block font-semibold">This cannot be undone.</span>
    </ConfirmActionButton>
  );
}
