// Printable QR codes for keyword-started campaigns (venue check-in, customer experience): the code opens the
// phone's messaging app with the business number and the campaign's keyword filled in (an sms: link, in the form
// both iOS and Android read), and the same keyword and number are printed beside it for people who cannot scan.
import QRCode from "qrcode";
import type { Database } from "#db/index";
import { qrSvg, smsLink } from "~/domain/groups/join.server";
import { getCampaign } from "./campaigns.server";
import type { CampaignTypeName } from "./model";

export type QrCampaignType = Extract<CampaignTypeName, "CHECKIN" | "CUSTOMEREXP">;

export interface CampaignQr {
  campaignId: number;
  campaignName: string;
  businessName: string;
  keyword: string;
  /** E.164; null while the business has no number yet. */
  phoneNumber: string | null;
  /** The sms: link the code holds; null without a number. */
  sms: string | null;
}

/** The QR facts for one of the business's campaigns of this type; null for another business's id or another type. */
export async function campaignQr(db: Database, businessId: number, campaignId: number, type: QrCampaignType): Promise<CampaignQr | null> {
  if (!Number.isSafeInteger(campaignId) || campaignId <= 0) return null;
  const campaign = await getCampaign(db, businessId, campaignId);
  if (!campaign || campaign.type !== type || !campaign.keyword) return null;
  const b = await db.selectFrom("businesses").select(["name", "phone_number"]).where("id", "=", businessId).executeTakeFirstOrThrow();
  return {
    campaignId: campaign.id,
    campaignName: campaign.name,
    businessName: b.name,
    keyword: campaign.keyword,
    phoneNumber: b.phone_number,
    sms: b.phone_number ? smsLink(b.phone_number, campaign.keyword) : null,
  };
}

/** The most recently started running campaign of the type with a keyword (what a bare QR page shows), or null. */
export async function runningQrCampaignId(db: Database, businessId: number, type: QrCampaignType): Promise<number | null> {
  const row = await db
    .selectFrom("campaigns")
    .select("id")
    .where("business_id", "=", businessId)
    .where("type", "=", type)
    .where("status", "=", "ONGOING")
    .where("keyword", "is not", null)
    .orderBy("issued_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** The code as SVG markup (no script; scales to any print size). */
export function campaignQrSvg(sms: string): Promise<string> {
  return qrSvg(sms);
}

/** The code as a PNG large enough to print sharp on an A4 poster. */
export function campaignQrPng(sms: string): Promise<Buffer> {
  return QRCode.toBuffer(sms, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 1200, color: { dark: "#000000", light: "#ffffff" } });
}
