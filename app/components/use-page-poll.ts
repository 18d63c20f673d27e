// Polling for whole pages (DM inbox and threads): re-run the route's loaders every `intervalMs`
// with JavaScript on, only while the tab is visible and the browser online, and never while a form
// is being submitted. With JavaScript off a refresh shows the same.
import { useEffect } from "react";
import { useNavigation, useRevalidator } from "react-router";

export function usePagePoll(intervalMs = 10_000) {
  const { revalidate, state } = useRevalidator();
  const navigation = useNavigation();
  const busy = state !== "idle" || navigation.state !== "idle";
  useEffect(() => {
    if (busy) return;
    const id = window.setInterval(() => {
      if (document.visibilityState === "visible" && navigator.onLine !== false) void revalidate();
    }, intervalMs);
    return () => window.clearInterval(id);
  }, [busy, intervalMs, revalidate]);
}
