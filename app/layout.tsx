import type { Metadata } from "next";
import { ToastHost } from "@/components/toast";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Console", template: "%s · Console" },
  description: "Branch and subscriber administration console",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        {children}
        <ToastHost position="top-right" richColors closeButton />
      </body>
    </html>
  );
}
