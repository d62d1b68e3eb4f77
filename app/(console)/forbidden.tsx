import { ForbiddenState } from "@/components/page-state";

/** A page one's role does not open: shown in the console's layout, inside its <main>. */
export default function Forbidden() {
  return <ForbiddenState landmark={false} />;
}
