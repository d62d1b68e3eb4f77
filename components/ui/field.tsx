import { useId } from "react";
import { useProblemWords } from "@/lib/i18n/client";
import { inputClass } from "./input-styles";

type ControlProps = { id: string; className: string; "aria-invalid": boolean; "aria-describedby"?: string };

/** A labelled control with its error under it, wired for screen readers. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: (props: ControlProps) => React.ReactNode;
}) {
  const id = useId();
  const words = useProblemWords();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="mt-1">
        {children({ id, className: inputClass, "aria-invalid": Boolean(error), "aria-describedby": describedBy })}
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {words(error)}
        </p>
      ) : null}
    </div>
  );
}
