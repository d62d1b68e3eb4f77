import { UnauthorizedState } from "@/components/page-state";

export default function Unauthorized() {
  return <UnauthorizedState />;
}
