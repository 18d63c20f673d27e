// The loader and downloads behind the printable campaign QR pages (/checkinqrcode, /customerexpqrcode): the
// campaign must be the signed-in business's and of the page's type, or the answer is a 404.
import { data, redirect } from "react-router";
import { can } from "~/domain/accounts/permissions";
import { campaignQr, campaignQrPng, campaignQrSvg, runningQrCampaignId, type QrCampaignType } from "~/domain/campaigns/qr.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { formatUkNumber } from "~/lib/phone";

type Ctx = Parameters<typeof requireUser>[0];

/** ?id=N as a campaign id, or a 404. */
function campaignIdFrom(request: Request): number {
  const raw = new URL(request.url).searchParams.get("id") ?? "";
  const id = Number(raw);
  if (!/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(id) || id <= 0) throw data(null, { status: 404 });
  return id;
}

/** What a bare QR page (no ?id) shows when the business runs no campaign of its type: the way to set one up. */
export interface QrNotConfigured {
  type: QrCampaignType;
  notConfigured: true;
}

export async function qrPageLoader(request: Request, context: Ctx, type: QrCampaignType): Promise<QrPageData | QrNotConfigured> {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const url = new URL(request.url);
  if (!url.searchParams.has("id")) {
    // The bare page (from the menu or a bookmark) opens the running campaign's code, or says how to get one.
    const running = await runningQrCampaignId(db, user.businessId, type);
    if (running === null) return { type, notConfigured: true };
    throw redirect(`${url.pathname}?id=${running}${url.searchParams.get("size") === "card" ? "&size=card" : ""}`);
  }
  return qrPage(request, user.businessId, db, type);
}

async function qrPage(request: Request, businessId: number, db: ReturnType<typeof getDeps>["db"], type: QrCampaignType) {
  const id = campaignIdFrom(request);
  const qr = await campaignQr(db, businessId, id, type);
  if (!qr) throw data(null, { status: 404 });
  const size = new URL(request.url).searchParams.get("size") === "card" ? ("card" as const) : ("poster" as const);
  return {
    type,
    size,
    id: qr.campaignId,
    campaignName: qr.campaignName,
    businessName: qr.businessName,
    keyword: qr.keyword,
    number: qr.phoneNumber ? formatUkNumber(qr.phoneNumber) : null,
    sms: qr.sms,
    svg: qr.sms ? await campaignQrSvg(qr.sms) : null,
  };
}

/** The SVG or PNG download (a resource route: it checks the permission itself, no layout runs before it). */
export async function qrDownload(request: Request, context: Ctx, type: QrCampaignType): Promise<Response> {
  const user = requireUser(context);
  if (!can(user, "campaigns:manage")) throw data(null, { status: 403 });
  const { db } = getDeps(context);
  const id = campaignIdFrom(request);
  const qr = await campaignQr(db, user.businessId, id, type);
  if (!qr || !qr.sms) throw data(null, { status: 404 });
  const format = new URL(request.url).searchParams.get("format");
  const base = `${type === "CHECKIN" ? "check-in" : "survey"}-${qr.keyword.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-qr`;
  const common = { "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" };
  if (format === "png") {
    const png = await campaignQrPng(qr.sms);
    return new Response(new Uint8Array(png), { headers: { ...common, "Content-Type": "image/png", "Content-Disposition": `attachment; filename="${base}.png"` } });
  }
  if (format === "svg") {
    const svg = await campaignQrSvg(qr.sms);
    return new Response(svg, { headers: { ...common, "Content-Type": "image/svg+xml; charset=utf-8", "Content-Disposition": `attachment; filename="${base}.svg"` } });
  }
  throw data(null, { status: 404 });
}

export type QrPageData = Awaited<ReturnType<typeof qrPage>>;
