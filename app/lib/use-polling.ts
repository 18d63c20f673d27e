// Polling: refresh a value from the JSON API at a fixed interval, only with JavaScript, only while
// the browser is online and the tab is visible. The server-rendered value is shown until the first
// answer arrives, and a failed poll keeps the last value, so nothing jumps or empties out.
import { useEffect, useRef, useState } from "react";

/** Request time-out. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Polling intervals. */
export const POLL = { feed: 10_000, unread: 10_000, plan: 6_000, community: 9_000, tiles: 5_000, chat: 10_000 } as const;

/** GETs JSON from the app's API with the session cookie; throws on a non-2xx answer or time-out. */
export async function fetchJson<T = unknown>(url: string, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  // Older phones lack AbortSignal.any: the caller's signal then wins.
  const combined = signal ? (typeof AbortSignal.any === "function" ? AbortSignal.any([signal, timeout]) : signal) : timeout;
  const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", signal: combined });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return (await res.json()) as T;
}

/** The `total` of GET /api/stats?type=… (the stats response). */
export async function fetchStat(type: string, signal?: AbortSignal): Promise<number> {
  const body = await fetchJson<{ total?: unknown }>(`/api/stats?type=${encodeURIComponent(type)}`, signal);
  const n = Number(body?.total);
  if (!Number.isFinite(n)) throw new Error(`stats ${type}: no total`);
  return n;
}

/** A list from an API answer that is either an array or an object wrapping one. */
export function listOf<T>(body: unknown, keys: string[] = ["items", "messages", "data"]): T[] | null {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === "object") {
    for (const k of keys) {
      const v = (body as Record<string, unknown>)[k];
      if (Array.isArray(v)) return v as T[];
    }
  }
  return null;
}

function canPoll(): boolean {
  return typeof document !== "undefined" && document.visibilityState === "visible" && navigator.onLine !== false;
}

/**
 * Returns `initial` (the server-rendered value) and then whatever `load` resolves to, every
 * `intervalMs` while online and visible. A new `initial` (after a navigation or revalidation) wins.
 * `load` may resolve to undefined to keep the current value.
 */
export function usePolling<T>(load: (signal: AbortSignal) => Promise<T | undefined>, intervalMs: number, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    setValue(initial);
  }, [initial]);

  useEffect(() => {
    let stopped = false;
    let inFlight: AbortController | null = null;
    const tick = async () => {
      if (!canPoll() || inFlight) return;
      const controller = new AbortController();
      inFlight = controller;
      try {
        const next = await loadRef.current(controller.signal);
        if (!stopped && next !== undefined) setValue(next);
      } catch {
        // Network errors are only logged; the last value stays on screen.
      } finally {
        inFlight = null;
      }
    };
    const timer = window.setInterval(() => void tick(), intervalMs);
    const onVisible = () => {
      if (document.visibilityState === "visible") void tick();
    };
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("online", onVisible);
    return () => {
      stopped = true;
      inFlight?.abort();
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("online", onVisible);
    };
  }, [intervalMs]);

  return value;
}
