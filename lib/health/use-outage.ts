"use client";

import { useEffect, useState } from "react";

// For the error pages (client components): asks GET /api/health whether the failure is the
// database being unreachable; while it is, asks again every few seconds and calls `retry` (Next's
// re-fetch and re-render of the failed segment) as soon as the database answers again.

type OutageState = "checking" | "database-down" | "other";

const POLL_MS = 3_000;

async function databaseDown(): Promise<boolean | null> {
  try {
    const response = await fetch("/api/health", { cache: "no-store", headers: { accept: "application/json" } });
    if (response.status === 503) return true;
    if (response.ok) return false;
    return null;
  } catch {
    return null; // the server itself is unreachable: not something we can tell apart here
  }
}

export function useDatabaseOutage(retry: () => void): OutageState {
  const [state, setState] = useState<OutageState>("checking");
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let sawOutage = false;
    const check = async () => {
      const down = await databaseDown();
      if (stopped) return;
      if (down) {
        sawOutage = true;
        setState("database-down");
        timer = setTimeout(check, POLL_MS);
      } else if (sawOutage && down === false) {
        retry(); // back: render the page again
      } else if (sawOutage) {
        timer = setTimeout(check, POLL_MS); // the server did not answer: keep trying
      } else {
        setState("other");
      }
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [retry]);
  return state;
}
