/**
 * Shown while a list's rows load. It sits inside the page (a Suspense boundary around the
 * results), not in a route-level loading.tsx: the page's guard must run before anything is
 * streamed, so that a 403 or a redirect keeps its HTTP status.
 */
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
