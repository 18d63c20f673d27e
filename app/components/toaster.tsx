// Notifications: top-centre; success and info hide after 5000 ms, errors stay until closed; an
// identical notification (same type and text) is not stacked while shown; at most 20 at once.
// The server renders the current toast into the page, so it is seen with JavaScript off too.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "./ui";

export interface ToastItem {
  type: "info" | "success" | "error" | "warning";
  message: string;
  description?: string;
}

export const TOAST_TIMEOUT_MS = 5000;
export const TOAST_MAX = 20;

/** Adds a toast to a list, applying the notification rules. Pure, so it is unit-tested. */
export function addToast<T extends ToastItem & { id: number }>(list: T[], toast: T): T[] {
  if (list.some((t) => t.type === toast.type && t.message === toast.message && t.description === toast.description)) return list;
  const next = [...list, toast];
  return next.length > TOAST_MAX ? next.slice(next.length - TOAST_MAX) : next;
}

type Shown = ToastItem & { id: number };
let counter = 0;
const listeners = new Set<(t: ToastItem) => void>();

/** Shows a toast from anywhere in the browser (for example after a fetcher completes). */
export function showToast(toast: ToastItem) {
  for (const l of listeners) l(toast);
}

export function Toaster({ toast }: { toast: ToastItem | null }) {
  const { t } = useTranslation();
  const [items, setItems] = useState<Shown[]>(() => (toast ? [{ ...toast, id: ++counter }] : []));
  const [hydrated, setHydrated] = useState(false);
  const last = useRef(toast);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (toast && toast !== last.current) setItems((list) => addToast(list, { ...toast, id: ++counter }));
    last.current = toast;
  }, [toast]);
  useEffect(() => {
    const l = (item: ToastItem) => setItems((list) => addToast(list, { ...item, id: ++counter }));
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  useEffect(() => {
    if (!hydrated) return;
    const timers = items
      .filter((i) => i.type === "success" || i.type === "info")
      .map((i) => setTimeout(() => setItems((list) => list.filter((x) => x.id !== i.id)), TOAST_TIMEOUT_MS));
    return () => timers.forEach(clearTimeout);
  }, [items, hydrated]);

  return (
    <div className="toasts" aria-live="polite">
      {items.map((item) => (
        <div key={item.id} className={`toast toast--${item.type}`} role={item.type === "error" ? "alert" : "status"}>
          <Icon name={item.type === "error" ? "alert" : item.type === "success" ? "check" : "info"} />
          <div className="toast__text">
            <p>{t(item.message)}</p>
            {item.description ? <p className="toast__desc">{t(item.description)}</p> : null}
          </div>
          {hydrated ? (
            <button type="button" className="toast__close" onClick={() => setItems((list) => list.filter((x) => x.id !== item.id))} aria-label={t("common.dismiss")}>
              <Icon name="close" />
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
