// Campaign services: create, edit, end, delete, read and report. The engine (fires, waits, the reply router's
// handlers, result counts) lives beside this file; each type's rules live in ./types.
import type { Database } from "#db/index";
import type { CampaignInput, CampaignKind, CampaignView, ResponseTotal } from "./model";
import type { FeedItem } from "~/domain/feed/feed-item";

export interface CampaignDeps {
  db: Database;
  now: () => Date;
  config: { messaging: { sendDelaySeconds: number; dmSendDelaySeconds?: number }; publicUrl?: string };
}

export interface ReplyRow {
  memberId: number;
  name: string | null;
  phone: string;
  response: string;
  /** The poll option or RSVP answer it counted as, when it is one. */
  responseOption: string | null;
  at: string;
}

export interface DoorListRow {
  memberId: number;
  name: string | null;
  phone: string;
  partySize: number;
  status: "ACCEPTED" | "WAITLIST" | "DECLINED";
  at: string;
}

export interface Winner {
  rank: number;
  memberId: number;
  name: string | null;
  phone: string;
}

export interface CampaignResults {
  campaign: CampaignView;
  /** Replies, newest first (one question, poll, invitation), at most `replyLimit`. */
  replies: ReplyRow[];
  repliesTotal: number;
  /** Auto responder: keyword texts today, yesterday and this month (UK time). */
  totals?: { today: number; yesterday: number; month: number };
  invitation?: {
    acceptedReplies: number;
    acceptedPlaces: number;
    declined: number;
    waitlist: number;
    noReply: number;
    capacity: number | null;
    doorList: DoorListRow[];
  };
  draw?: {
    entries: number;
    /** SHA-256 of the seed, shown from the start so the draw can be checked. */
    seedHash: string;
    /** The seed, shown once drawn. */
    seed: string | null;
    drawnAt: string | null;
    winners: Winner[];
  };
  /** Top response's share of replies, a whole number (poll and invitation). */
  topResponse: ResponseTotal & { percent: number } | null;
}

export interface ListOptions {
  kind?: CampaignKind;
  page?: number;
  pageSize?: number;
}

export declare function createCampaign(deps: CampaignDeps, input: { businessId: number; userId: number | null; input: CampaignInput; idempotencyKey?: string | null }): Promise<CampaignView>;
export declare function updateCampaign(deps: CampaignDeps, input: { businessId: number; campaignId: number; input: CampaignInput }): Promise<CampaignView>;
export declare function endCampaign(deps: CampaignDeps, input: { businessId: number; campaignId: number }): Promise<CampaignView>;
export declare function deleteCampaign(deps: CampaignDeps, input: { businessId: number; campaignId: number }): Promise<void>;
export declare function getCampaign(db: Database, businessId: number, campaignId: number): Promise<CampaignView | null>;
export declare function listCampaigns(db: Database, businessId: number, options?: ListOptions): Promise<{ items: CampaignView[]; total: number }>;
export declare function campaignResults(db: Database, businessId: number, campaignId: number, now: Date, options?: { replyLimit?: number }): Promise<CampaignResults | null>;
export declare function exportCampaignCsv(db: Database, businessId: number, campaignId: number): Promise<{ filename: string; csv: string } | null>;

/** The home feed's campaign items (ONEQUESTION, POLL, INVITATION, BOUNCEBACK, PICKWINNERS), newest first. */
export declare function campaignFeedItems(db: Database, businessId: number, now: Date): Promise<FeedItem[]>;
/** Campaigns live or ongoing now (the live-campaigns tile and CAMPAIGNSTOTAL). */
export declare function countLiveCampaigns(db: Database, businessId: number): Promise<number>;
