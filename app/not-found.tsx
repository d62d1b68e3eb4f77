import { connection } from "next/server";
import { NotFoundState } from "@/components/page-state";

export default async function NotFound() {
  // Rendered per request, never prerendered: the CSP nonce of proxy.ts must reach its scripts.
  await connection();
  return <NotFoundState />;
}
