"use client";

import { useEffect, useState, type ComponentType } from "react";
import type { ToasterProps } from "sonner";

// Toasts (sonner), loaded with the first toast instead of with every page: most page views show
// none, and the library is a tenth of a list page's JavaScript. <ToastHost> sits in the root
// layout, so a toast raised just before a navigation (a saved form going back to its list) stays
// on screen; sonner replays toasts raised before its <Toaster> mounted.

let sonner: Promise<typeof import("sonner")> | null = null;
const load = () => (sonner ??= import("sonner"));
const hosts = new Set<() => void>();

/** Shows a toast (loading the toast library first, once). */
export function notify(kind: "success" | "error", message: string): void {
  void load().then(({ toast }) => {
    hosts.forEach((mount) => mount());
    toast[kind](message);
  });
}

export function ToastHost(props: ToasterProps) {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    const mount = () => void load().then((m) => setToaster(() => m.Toaster));
    hosts.add(mount);
    return () => void hosts.delete(mount);
  }, []);
  return Toaster ? <Toaster {...props} /> : null;
}
