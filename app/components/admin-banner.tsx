// Admin-access banner (rendered by root.tsx as a plain form posting to /logout?admin=1): with
// JavaScript, the sign-out happens in the background and then the window closes. A window the
// script did not open may refuse to close; the browser then goes to the login page as without JS.
import { useEffect } from "react";

export function useAdminBannerClose() {
  useEffect(() => {
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-admin-banner")) return;
      event.preventDefault();
      // Whatever the answer, even a network error, the window closes afterwards.
      void fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin", redirect: "manual" })
        .catch(() => undefined)
        .finally(() => {
          window.close();
          // Still here: the browser kept the window open.
          window.setTimeout(() => window.location.assign("/login?adminClosed=1"), 300);
        });
    };
    document.addEventListener("submit", onSubmit);
    return () => document.removeEventListener("submit", onSubmit);
  }, []);
}
