export default function Loading() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-4">
      <span className="sr-only">Loading…</span>
      <div className="h-8 w-56 rounded bg-slate-200" />
      <div className="h-24 rounded-lg bg-slate-200/70" />
      <div className="space-y-2">
        {Array.from({ length: 10 }, (_, i) => (
          <div key={i} className="h-9 rounded bg-slate-200/60" />
        ))}
      </div>
    </div>
  );
}
