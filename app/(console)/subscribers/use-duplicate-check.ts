"use client";

import { useCallback, useRef, useState } from "react";
import type { DuplicateCheckInput } from "@/lib/subscribers/schema";
import type { DuplicateWarning } from "@/lib/subscribers/mutations";
import { checkDuplicateAction } from "./actions";
import { reloadIfStale } from "@/components/ui/reload-if-stale";

export type DuplicateWarnings = { email: DuplicateWarning; mobile: DuplicateWarning };
const NONE: DuplicateWarnings = { email: null, mobile: null };

/** Only a warning: the server decides is_duplicate. Answers to an older question are dropped. */
export function useDuplicateCheck() {
  const [warnings, setWarnings] = useState<DuplicateWarnings>(NONE);
  const last = useRef(0);

  const check = useCallback(async (input: DuplicateCheckInput) => {
    const ticket = ++last.current;
    try {
      const result = await checkDuplicateAction(input);
      if (ticket !== last.current) return;
      setWarnings(result.ok ? result.data : NONE);
    } catch (error) {
      if (reloadIfStale(error)) return;
      if (ticket === last.current) setWarnings(NONE); // a warning is best effort
    }
  }, []);

  return { warnings, check };
}
