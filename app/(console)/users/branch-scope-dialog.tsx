"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useMemo, useRef, useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { FormAlert } from "@/components/ui/form-alert";
import { setBranchesAction } from "./actions";

export type BranchChoice = { id: number; name: string };

/** Which branches a staff member sees: every branch, or those ticked (the list searched by name). */
export function BranchScopeDialog({
  user,
  branches,
  open,
  onClose,
}: {
  user: { id: number; name: string; branch_ids: number[] | null };
  branches: BranchChoice[];
  open: boolean;
  onClose: () => void;
}) {
  const router = useRouter();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [pending, start] = useTransition();
  const [every, setEvery] = useState(user.branch_ids === null);
  const [chosen, setChosen] = useState<Set<number>>(new Set(user.branch_ids ?? []));
  const [search, setSearch] = useState("");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setEvery(user.branch_ids === null);
      setChosen(new Set(user.branch_ids ?? []));
      setSearch("");
      setError(null);
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open, user.branch_ids]);

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return q ? branches.filter((b) => b.name.toLowerCase().includes(q)) : branches;
  }, [branches, search]);

  const toggle = (branch: number) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(branch)) next.delete(branch);
      else next.add(branch);
      return next;
    });

  const save = () => {
    if (!every && chosen.size === 0) {
      setError("Tick at least one branch, or choose every branch.");
      return;
    }
    start(async () => {
      try {
        const result = await setBranchesAction({ id: user.id, branch_ids: every ? null : [...chosen] });
        if (result.ok) {
          if (result.message) notify("success", result.message);
          onClose();
          router.refresh();
        } else {
          setError(result.fieldErrors?.branch_ids?.[0] ?? result.formError ?? "The branches could not be saved.");
        }
      } catch {
        setError("The branches could not be saved. Check your connection and try again.");
      }
    });
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-xl border border-slate-200 p-0 text-left shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="space-y-4 p-6">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          Branches of <bdi>{user.name}</bdi>
        </h2>
        <p className="text-sm whitespace-normal text-slate-600">
          They see, export, import and change the subscribers of these branches only, from their next request on.
        </p>
        <fieldset className="space-y-2 text-sm">
          <legend className="sr-only">Scope</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-scope`} checked={every} onChange={() => setEvery(true)} />
            Every branch
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-scope`} checked={!every} onChange={() => setEvery(false)} />
            Only the branches ticked below
          </label>
        </fieldset>
        {every ? null : (
          <div className="space-y-2">
            <label className="block text-sm font-medium text-slate-700" htmlFor={`${id}-search`}>
              Search branches
            </label>
            <input
              id={`${id}-search`}
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm"
            />
            <ul aria-label="Branches" className="max-h-60 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2 text-sm">
              {shown.map((b) => (
                <li key={b.id}>
                  <label className="flex items-center gap-2">
                    <input type="checkbox" checked={chosen.has(b.id)} onChange={() => toggle(b.id)} />
                    <bdi>{b.name}</bdi>
                  </label>
                </li>
              ))}
              {shown.length === 0 ? <li className="text-slate-500">No branch matches.</li> : null}
            </ul>
            <p className="text-xs text-slate-500" aria-live="polite">
              {chosen.size} ticked
            </p>
          </div>
        )}
        <FormAlert message={error} />
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-100 bg-slate-50 px-6 py-4">
        <button type="button" className={buttonClass.secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={buttonClass.primary} onClick={save} disabled={pending}>
          {pending ? "Saving…" : "Save branches"}
        </button>
      </div>
    </dialog>
  );
}
