/** Inside the page, not a loading.tsx: the guard must run before streaming, so a 403 keeps its status. */
export function TableSkeleton() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-2">
      <span className="sr-only">Loading…</span>
      <div className="h-5 w-48 rounded bg-slate-200" />
      {Array.from({ length: 10 }, (_, i) => (
        <div key={i} className="h-9 rounded bg-slate-200/60" />
      ))}
    </div>
  );
}
