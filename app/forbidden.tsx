import { ForbiddenState } from "@/components/page-state";

export default function Forbidden() {
  return <ForbiddenState />;
}
