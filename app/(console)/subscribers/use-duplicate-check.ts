"use client";

import { useCallback, useRef, useState } from "react";
import type { DuplicateCheckInput } from "@/lib/subscribers/schema";
import type { DuplicateWarning } from "@/lib/subscribers/mutations";
import { checkDuplicateAction } from "./actions";
import { callAction } from "@/components/ui/call-action";

export type DuplicateWarnings = { email: DuplicateWarning; mobile: DuplicateWarning };
const NONE: DuplicateWarnings = { email: null, mobile: null };

/** Only a warning: the server decides is_duplicate. Answers to an older question are dropped. */
export function useDuplicateCheck() {
  const [warnings, setWarnings] = useState<DuplicateWarnings>(NONE);
  const last = useRef(0);

  const check = useCallback(async (input: DuplicateCheckInput) => {
    const ticket = ++last.current;
    const result = await callAction(() => checkDuplicateAction(input));
    // A warning is best effort: none when the check could not be made.
    if (ticket === last.current) setWarnings(result?.ok ? result.data : NONE);
  }, []);

  return { warnings, check };
}
