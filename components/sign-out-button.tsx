"use client";

import { useFormStatus } from "react-dom";
import { buttonClass } from "./ui/button-styles";

/** The submit button of the header's sign-out form: disabled while the sign-out is under way. */
export function SignOutButton() {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={buttonClass.secondary} disabled={pending}>
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
