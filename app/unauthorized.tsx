import { PageState } from "@/components/page-state";

export default function Unauthorized() {
  return (
    <PageState code="401" title="Sign in to continue" action={{ href: "/login", label: "Sign in" }}>
      Your session has ended.
    </PageState>
  );
}
