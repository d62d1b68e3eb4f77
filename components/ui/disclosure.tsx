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
        // A confirmation dialog's own Escape closes the dialog only.
        if (e.key === "Escape" && panel.open && !(e.target instanceof Element && e.target.closest("dialog"))) {
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
