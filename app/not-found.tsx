import { PageState } from "@/components/page-state";

export default function NotFound() {
  return (
    <PageState code="404" title="Page not found">
      The page or record you asked for does not exist, or it was deleted.
    </PageState>
  );
}
