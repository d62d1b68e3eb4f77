"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { buttonClass } from "./ui/button-styles";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className={buttonClass.secondary}
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: "/login" });
      }}
    >
      Sign out
    </button>
  );
}
