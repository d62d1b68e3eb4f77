import { PageState } from "@/components/page-state";
import { requirePageUser } from "@/lib/auth/page-guards";
import { isScoped } from "@/lib/auth/scope";

/** A record that is not there and one outside the user's branches answer alike: nothing tells them apart. */
export default async function SubscriberNotFound() {
  const user = await requirePageUser("/subscribers");
  return (
    <PageState code="404" title="This subscriber is not available" landmark={false} action={{ href: "/subscribers", label: "Back to subscribers" }}>
      It may have been deleted or merged into another record
      {isScoped(user.scope) ? ", or it belongs to a branch you do not have access to: an administrator can tell you" : ""}.
    </PageState>
  );
}
