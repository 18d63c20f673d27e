// Admin access: /adminaccess/{accessToken} signs a Textcircle administrator in as a customer.
// The token is single use and expires after 10 minutes; the session carries the admin-access flag, so
// the banner shows. A bad, used or expired token gets a clear page (403).
import { useTranslation } from "react-i18next";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/adminaccess.$token";
import { Banner } from "~/components/ui";
import { consumeAdminAccessToken } from "~/domain/accounts/admin-access.server";
import { startWebSession } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";

export const handle = { titleKey: "adminAccess.meta.title", descriptionKey: "adminAccess.meta.description" };

const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { db, now } = getDeps(context);
  const userId = await consumeAdminAccessToken(db, params.token ?? "", now());
  if (!userId) return data({ refused: true }, { status: 403, headers: PRIVATE });
  const cookie = await startWebSession(context, request, userId, { adminAccess: true });
  return redirect("/", { headers: { ...PRIVATE, "Set-Cookie": cookie } });
}

export default function AdminAccess() {
  const { t } = useTranslation();
  return (
    <div className="public__card stack">
      <h1>{t("adminAccess.refusedTitle")}</h1>
      <Banner tone="error">{t("adminAccess.refusedBody")}</Banner>
      <p>{t("adminAccess.refusedHelp")}</p>
      <p>
        <Link to="/login">{t("adminAccess.toLogin")}</Link>
      </p>
    </div>
  );
}
