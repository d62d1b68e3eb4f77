import type { CSSProperties } from "react";
import type { Metadata } from "next";
import { ToastHost } from "@/components/toast";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Console", template: "%s · Console" },
  description: "Branch and subscriber administration console",
};

// Sonner's own green and red text are too light for WCAG AA on their backgrounds: the same hues, darker.
const TOAST_COLOURS = { "--success-text": "#166534", "--error-text": "#991b1b" } as CSSProperties;

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        {children}
        <ToastHost position="bottom-right" richColors closeButton style={TOAST_COLOURS} />
      </body>
    </html>
  );
}
