// Export files built in the background. An owner asks for a file (a venue's check-ins over the last 21 days); the
// request is a PENDING row, a worker claims it (CREATING), writes the CSV into the row and marks it AVAILABLE (or
// FAILED with the reason). Each file has an unguessable reference for its public share link, and files are deleted
// 14 days after they were made (spec section 9). Only check-in campaigns have an export file (BR041 for the rest).
import crypto from "node:crypto";
import { sql } from "kysely";
import type { Database } from "#db/index";
import type { ExportFileStatus } from "#db/types";
import { anyFree, claimRows } from "#db/claim";
import { getCampaign } from "~/domain/campaigns/campaigns.server";
import type { CampaignView } from "~/domain/campaigns/model";
import { autoCheckoutAt } from "~/domain/campaigns/types/checkin";
import { csvLine } from "~/domain/import/csv";
import { AppError } from "~/lib/errors";
import { utcToUkDateTime } from "~/lib/uk-time";
import type { FeedItem } from "~/domain/feed/feed-item";

const DAY = 86_400_000;
/** How far back a check-in export reaches. */
export const CHECKIN_EXPORT_DAYS = 21;
/** How long a made file is kept before the worker deletes it. */
export const EXPORT_KEEP_DAYS = 14;
/** A CREATING file whose worker has not finished within this time is taken again by another worker. */
const CLAIM_LEASE_MS = 10 * 60_000;
const BATCH = 5;
export const EXPORT_PAGE_SIZE = 20;

export interface ExportFileView {
  id: number;
  fileRef: string;
  status: ExportFileStatus;
  rows: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** When the worker will delete it. */
  expiresAt: string;
}

export interface ExportDeps {
  db: Database;
  now: () => Date;
}

function newFileRef(): string {
  return crypto.randomBytes(18).toString("base64url");
}

/** A signed-in business's check-in campaign for the export page: null when it is not theirs; BR041 for a type with no export. */
export async function exportableCampaign(db: Database, businessId: number, campaignId: number): Promise<CampaignView | null> {
  if (!Number.isSafeInteger(campaignId) || campaignId <= 0) return null;
  const campaign = await getCampaign(db, businessId, campaignId);
  if (!campaign) return null;
  if (campaign.type !== "CHECKIN") throw new AppError("BR041");
  return campaign;
}

/** Asks for a new file; a file already waiting or being made is returned instead of a second one. */
export async function requestCheckinExport(db: Database, businessId: number, campaignId: number, now: Date): Promise<{ id: number; fileRef: string; created: boolean }> {
  const campaign = await exportableCampaign(db, businessId, campaignId);
  if (!campaign) throw new AppError("NF001", undefined, { status: 404 });
  const waiting = await db
    .selectFrom("export_files")
    .select(["id", "file_ref"])
    .where("business_id", "=", businessId)
    .where("campaign_id", "=", campaign.id)
    .where("status", "in", ["PENDING", "CREATING"])
    .executeTakeFirst();
  if (waiting) return { id: Number(waiting.id), fileRef: waiting.file_ref, created: false };
  const fileRef = newFileRef();
  const row = await db
    .insertInto("export_files")
    .values({ business_id: businessId, campaign_id: campaign.id, file_ref: fileRef, status: "PENDING", rows: null, content: null, error: null, claimed_at: null, created_at: now.toISOString(), finished_at: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), fileRef, created: true };
}

/** A campaign's files, newest first, a page at a time. */
export async function listExportFiles(db: Database, businessId: number, campaignId: number, page = 1): Promise<{ items: ExportFileView[]; total: number }> {
  const base = db.selectFrom("export_files").where("business_id", "=", businessId).where("campaign_id", "=", campaignId);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst())?.n ?? 0);
  const rows = await base
    .select(["id", "file_ref", "status", "rows", "error", "created_at", "finished_at"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(EXPORT_PAGE_SIZE)
    .offset((Math.max(1, page) - 1) * EXPORT_PAGE_SIZE)
    .execute();
  return {
    total,
    items: rows.map((r) => ({
      id: Number(r.id),
      fileRef: r.file_ref,
      status: r.status,
      rows: r.rows === null ? null : Number(r.rows),
      error: r.error,
      createdAt: r.created_at,
      finishedAt: r.finished_at,
      expiresAt: new Date(Date.parse(r.created_at) + EXPORT_KEEP_DAYS * DAY).toISOString(),
    })),
  };
}

/** How many check-in export panels the home feed shows at most. */
const EXPORT_FEED_ITEMS = 5;

/** The feed item id of an export file's panel: the campaign and the file ("checkinexport-3-17"). */
export function exportFeedItemId(campaignId: number, fileId: number): string {
  return `checkinexport-${campaignId}-${fileId}`;
}

/**
 * The second kind of check-in panel on the home feed: each check-in campaign's latest export file while it is kept
 * (waiting, being made, ready with its row count and the day it will be deleted, or failed), so an owner who asked
 * for one sees it become ready without staying on the export page.
 */
export async function exportFeedItems(db: Database, businessId: number, now: Date): Promise<FeedItem[]> {
  const since = new Date(now.getTime() - EXPORT_KEEP_DAYS * DAY).toISOString();
  const rows = await db
    .selectFrom("export_files as f")
    .innerJoin("campaigns as c", "c.id", "f.campaign_id")
    .select(["f.id", "f.campaign_id", "f.status", "f.rows", "f.created_at", "f.finished_at", "c.name"])
    .where("f.business_id", "=", businessId)
    .where("f.created_at", ">=", since)
    .orderBy("f.created_at", "desc")
    .orderBy("f.id", "desc")
    .limit(50)
    .execute();
  const seen = new Set<number>();
  const items: FeedItem[] = [];
  for (const r of rows) {
    const campaignId = Number(r.campaign_id);
    if (seen.has(campaignId)) continue;
    seen.add(campaignId);
    items.push({
      type: "CHECKIN",
      id: exportFeedItemId(campaignId, Number(r.id)),
      name: r.name,
      status: r.status,
      ...(r.rows !== null ? { totalReceived: Number(r.rows) } : {}),
      lastInteraction: r.finished_at ?? r.created_at,
      closeDate: new Date(Date.parse(r.created_at) + EXPORT_KEEP_DAYS * DAY).toISOString(),
    });
    if (items.length === EXPORT_FEED_ITEMS) break;
  }
  return items;
}

/** The file behind a public share link; NF002 when it is unknown, deleted or not made (yet). */
export async function sharedExportFile(db: Database, fileRef: string): Promise<{ filename: string; content: string }> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(fileRef)) throw new AppError("NF002");
  const row = await db
    .selectFrom("export_files as f")
    .innerJoin("campaigns as c", "c.id", "f.campaign_id")
    .select(["f.content", "f.status", "f.created_at", "c.name"])
    .where("f.file_ref", "=", fileRef)
    .executeTakeFirst();
  if (!row || row.status !== "AVAILABLE" || row.content === null) throw new AppError("NF002");
  return { filename: exportFileName(row.name, row.created_at), content: row.content };
}

/** "front-door-check-ins-2026-11-24.csv" */
export function exportFileName(campaignName: string, createdAt: string): string {
  const safe = campaignName.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase().slice(0, 60) || "campaign";
  return `${safe}-check-ins-${utcToUkDateTime(new Date(createdAt)).date}.csv`;
}

function ukStamp(iso: string | null): string {
  if (!iso) return "";
  const { date, time } = utcToUkDateTime(new Date(iso));
  return `${date} ${time}`;
}

/** The CSV of a check-in campaign's visits in the 21 days before `asOf`, oldest first; UK times. */
export async function checkinCsv(db: Database, businessId: number, campaignId: number, asOf: Date): Promise<{ content: string; rows: number }> {
  const campaign = await getCampaign(db, businessId, campaignId);
  if (!campaign) throw new Error("campaign deleted");
  const since = new Date(asOf.getTime() - CHECKIN_EXPORT_DAYS * DAY).toISOString();
  const visits = await db
    .selectFrom("campaign_checkins as k")
    .leftJoin("members as m", "m.id", "k.member_id")
    .select(["k.phone", "k.source", "k.checked_in_at", "k.checked_out_at", "m.first_name", "m.full_name"])
    .where("k.business_id", "=", businessId)
    .where("k.campaign_id", "=", campaignId)
    .where("k.checked_in_at", ">=", since)
    .where("k.checked_in_at", "<=", asOf.toISOString())
    .orderBy("k.checked_in_at")
    .orderBy("k.id")
    .execute();
  const asOfIso = asOf.toISOString();
  let content = csvLine(["Name", "Mobile", "Checked in", "Checked out", "Source"]);
  for (const v of visits) {
    const auto = autoCheckoutAt(campaign, v.checked_in_at);
    const out = v.checked_out_at ?? (auto && auto <= asOfIso ? auto : null);
    content += csvLine([v.full_name || v.first_name || "", v.phone, ukStamp(v.checked_in_at), ukStamp(out), v.source === "QR" ? "QR code" : "Text"]);
  }
  return { content, rows: visits.length };
}

/** Claims waiting files (and files whose worker died) and makes them; returns how many it finished. */
export async function buildPendingExports(deps: ExportDeps): Promise<number> {
  const now = deps.now();
  const nowIso = now.toISOString();
  const stale = new Date(now.getTime() - CLAIM_LEASE_MS).toISOString();
  if (!(await anyFree(deps.db, "export_files", sql`status = 'PENDING' or (status = 'CREATING' and claimed_at < ${stale})`))) return 0;
  const claimed = await claimRows<{ id: number; business_id: number; campaign_id: number; created_at: string }>(deps.db, {
    table: "export_files",
    set: sql`status = 'CREATING', claimed_at = ${nowIso}`,
    where: sql`status = 'PENDING' or (status = 'CREATING' and claimed_at < ${stale})`,
    orderBy: sql`created_at, id`,
    limit: BATCH,
    returning: sql`id, business_id, campaign_id, created_at`,
  });
  for (const f of claimed) {
    const mine = (q: ReturnType<typeof updateFile>) => q.where("id", "=", Number(f.id)).where("status", "=", "CREATING").where("claimed_at", "=", nowIso);
    try {
      const { content, rows } = await checkinCsv(deps.db, Number(f.business_id), Number(f.campaign_id), new Date(f.created_at));
      await mine(updateFile(deps.db).set({ status: "AVAILABLE", content, rows, error: null, finished_at: deps.now().toISOString() })).execute();
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 500) : "unknown error";
      await mine(updateFile(deps.db).set({ status: "FAILED", error: reason, finished_at: deps.now().toISOString() })).execute();
    }
  }
  return claimed.length;
}

function updateFile(db: Database) {
  return db.updateTable("export_files");
}

/** Deletes files made more than 14 days ago; returns how many. */
export async function deleteExpiredExports(deps: ExportDeps): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - EXPORT_KEEP_DAYS * DAY).toISOString();
  const done = await deps.db.deleteFrom("export_files").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(done.numDeletedRows);
}

/** The worker's round: make waiting files, then delete expired ones. */
export async function runExportFiles(deps: ExportDeps): Promise<number> {
  return (await buildPendingExports(deps)) + (await deleteExpiredExports(deps));
}
