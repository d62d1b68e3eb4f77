import { NotFoundState } from "@/components/page-state";

/** A record or page missing under the console: shown in its layout, inside its <main>. */
export default function NotFound() {
  return <NotFoundState landmark={false} />;
}
