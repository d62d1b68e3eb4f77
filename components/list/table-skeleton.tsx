import { useListWords } from "./words";
// Its words are useTranslations("list")'s, through useListWords (English outside any provider).

/** Inside the page, not a loading.tsx: the guard must run before streaming, so a 403 keeps its status. Its bars are drawn by app/globals.css (.table-skeleton). */
export function TableSkeleton() {
  const t = useListWords();
  return (
    <div role="status" aria-live="polite" className="table-skeleton">
      <span className="sr-only">{t("loading")}</span>
    </div>
  );
}
