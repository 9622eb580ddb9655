// A tiny module-level toast store, so handleError works inside and outside React.
import { useSyncExternalStore } from "react";

export interface Toast {
  id: number;
  kind: "error" | "success";
  text: string;
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

export function pushToast(kind: Toast["kind"], text: string): void {
  const toast = { id: nextId++, kind, text };
  toasts = [...toasts, toast];
  emit();
  // Errors stay longer: they are what the user must read.
  setTimeout(() => dismissToast(toast.id), kind === "error" ? 8000 : 3000);
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
  );
}
