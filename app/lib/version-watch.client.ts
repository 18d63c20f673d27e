// App version and 401 handling in the browser. Every response carries X-App-Version; when it
// differs from the version this bundle was built for, the page reloads once (a flag remembers it);
// if the mismatch persists the user goes to /invalid. A matching version clears the flag.
// A 401 from the API sends the browser to /login (the server already cleared the session).
import { APP_VERSION_CLIENT } from "./version";

const FLAG = "tc.versionReloaded";

export function checkVersion(serverVersion: string | null): void {
  if (!serverVersion) return;
  if (serverVersion === APP_VERSION_CLIENT) {
    sessionStorage.removeItem(FLAG);
    return;
  }
  if (sessionStorage.getItem(FLAG)) {
    if (location.pathname !== "/invalid") location.assign("/invalid");
  } else {
    sessionStorage.setItem(FLAG, "1");
    location.reload();
  }
}

export function installResponseWatch(): void {
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, location.href);
    if (url.origin === location.origin) {
      checkVersion(response.headers.get("X-App-Version"));
      if (response.status === 401 && url.pathname.startsWith("/api/") && location.pathname !== "/login") {
        location.assign("/login");
      }
    }
    return response;
  };
}
