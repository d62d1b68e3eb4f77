import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";

// The trash's refusals as problem keys (problems.trash.*), put into the reader's words where shown.

export const subscriberNotInTrash = () => new AppError(404, "not_found", problem("trash.subscriberNotFound"));
export const branchNotInTrash = () => new AppError(404, "not_found", problem("trash.branchNotFound"));
