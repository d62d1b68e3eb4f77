"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, type ComponentType } from "react";
import type { ToasterProps } from "sonner";

// sonner is loaded with the first toast, as most pages show none; <ToastHost> is in the root
// layout so a toast raised just before a navigation stays on screen.

let sonner: Promise<typeof import("sonner")> | null = null;
const load = () => (sonner ??= import("sonner"));
const hosts = new Set<() => void>();

/** Shows a toast (loading the toast library first, once), with a button when given one (e.g. a change's Undo): that one stays until dismissed. */
export function notify(kind: "success" | "error", message: string, action?: { label: string; onClick: () => void }): void {
  void load().then(({ toast }) => {
    hosts.forEach((mount) => mount());
    toast[kind](message, action ? { action, duration: Infinity } : undefined);
  });
}

/** sonner's own labels (its region, each toast's close button) in the page's language. */
export function ToastHost(props: ToasterProps) {
  const t = useTranslations("ui");
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    const mount = () => void load().then((m) => setToaster(() => m.Toaster));
    hosts.add(mount);
    return () => void hosts.delete(mount);
  }, []);
  return Toaster ? (
    <Toaster containerAriaLabel={t("notifications")} {...props} toastOptions={{ closeButtonAriaLabel: t("closeToast"), ...props.toastOptions }} />
  ) : null;
}
