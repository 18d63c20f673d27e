import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** While the browser is offline a banner replaces the content. Server HTML always shows the content. */
export function OfflineBanner({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  if (online) return <>{children}</>;
  return (
    <main id="main" className="page page--narrow offline" role="alert">
      <h1>{t("common.offlineTitle")}</h1>
      <p>{t("common.offlineBody")}</p>
    </main>
  );
}
