// A small coloured label for statuses and flags, readable at a glance (colour is never the only
// signal: the text says it too).

const TONES = {
  green: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/25",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  blue: "bg-brand-50 text-brand-800 ring-brand-600/20",
  violet: "bg-violet-50 text-violet-800 ring-violet-600/20",
  slate: "bg-slate-100 text-slate-700 ring-slate-500/20",
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({ tone = "slate", children }: { tone?: BadgeTone; children: React.ReactNode }) {
  return (
    <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}>
      {children}
    </span>
  );
}

/** An empty value: a quiet dash for the eye, "none" for screen readers. */
export function EmptyValue() {
  return (
    <>
      <span aria-hidden="true" className="text-slate-400">
        —
      </span>
      <span className="sr-only">none</span>
    </>
  );
}
