"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import type { Strength } from "@/lib/auth/password-policy";

// The server's own estimate (lib/auth/password-policy.ts), loaded only once the user types: its word lists are large.

const LABELS = ["tooEasy", "tooEasy", "weak", "good", "strong"] as const;
const COLOURS = ["bg-red-500", "bg-red-500", "bg-amber-500", "bg-emerald-500", "bg-emerald-600"] as const;

export function PasswordStrength({ password, userInputs = [], minLength = 12 }: { password: string; userInputs?: string[]; minLength?: number }) {
  // The estimate of the password it was made for: a stale one (typing went on) is not shown.
  const t = useTranslations("passwordStrength");
  const [estimate, setEstimate] = useState<{ password: string; strength: Strength } | null>(null);
  const inputs = userInputs.join("\n");
  const strength = estimate?.password === password && password.length >= minLength ? estimate.strength : null;

  useEffect(() => {
    if (password.length < minLength) return;
    let current = true;
    const timer = setTimeout(async () => {
      const { passwordStrength } = await import("@/lib/auth/password-policy");
      const result = await passwordStrength(password, inputs ? inputs.split("\n") : []);
      if (current) setEstimate({ password, strength: result });
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [password, inputs, minLength]);

  const short = password.length > 0 && password.length < minLength;
  // The estimate's advice is the name of one of zxcvbn's sentences (lib/auth/password-policy.ts).
  const advice = strength && !strength.acceptable ? (strength.warning ?? strength.suggestions[0] ?? "other") : null;
  const label = strength ? t(LABELS[strength.score] ?? "strong") : "";
  const text = short
    ? t("short", { length: password.length, min: minLength })
    : strength
      ? advice
        ? t("withAdvice", { label, advice: t("advice", { advice }) })
        : label
      : "";
  return (
    <div className="mt-2" data-testid="password-strength">
      <div className="flex gap-1" aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <span
            key={i}
            className={`h-1.5 flex-1 rounded-full ${strength && !short && strength.score > i ? COLOURS[strength.score] : "bg-slate-200"}`}
          />
        ))}
      </div>
      <p className="mt-1 min-h-4 text-xs text-slate-600" aria-live="polite">
        {text}
      </p>
    </div>
  );
}
