"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-reads the page every `seconds` while it is shown (the server decides when to stop showing it). */
export function RefreshWhile({ seconds }: { seconds: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), seconds * 1000);
    return () => clearInterval(timer);
  }, [router, seconds]);
  return null;
}
