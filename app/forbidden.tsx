import { PageState } from "@/components/page-state";

export default function Forbidden() {
  return (
    <PageState code="403" title="Not allowed">
      Your role does not allow this. Ask an administrator if you need access.
    </PageState>
  );
}
