import { connection } from "next/server";
import { PageState } from "@/components/page-state";

export default async function NotFound() {
  // Rendered per request, never prerendered: the CSP nonce of proxy.ts must reach its scripts.
  await connection();
  return (
    <PageState code="404" title="Page not found">
      The page or record you asked for does not exist, or it was deleted.
    </PageState>
  );
}
