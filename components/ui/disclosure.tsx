"use client";

/**
 * A native <details> (its <summary> the button: Enter and Space open it) that Escape closes back
 * onto its button. Escape does only that: a search field inside would also empty itself.
 */
export function Disclosure({ className, children }: { className?: string; children: React.ReactNode }) {
  return (
    <details
      className={className}
      onKeyDown={(e) => {
        const panel = e.currentTarget;
        if (e.key === "Escape" && panel.open) {
          e.preventDefault();
          panel.open = false;
          panel.querySelector("summary")?.focus();
        }
      }}
    >
      {children}
    </details>
  );
}
