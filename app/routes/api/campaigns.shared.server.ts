// What the /api/campaigns routes share: the campaign id from the path, the body checked against the campaign
// model's input schema with the spec's error codes, the Idempotency-Key header, and the detail answer.
import { z } from "zod";
import { apiError, parseJsonBody } from "~/lib/api.server";
import type { ErrorStatus } from "~/lib/errors";
import { campaignInput, type CampaignInput } from "~/domain/campaigns/model";
import type { CampaignResults } from "~/domain/campaigns/campaigns.server";

/** The {id} of a campaign path; anything that cannot be an id is a campaign that does not exist (404 NF001). */
export function campaignIdParam(value: string | undefined): number {
  if (!value || !/^[1-9][0-9]{0,14}$/.test(value)) throw apiError("NF001", null, 404);
  return Number(value);
}

/** Schema messages that name a catalogue code ("errors.BR017") answer with that code; the rest are BR025. */
function issueStatus(issue: z.core.$ZodIssue): ErrorStatus {
  const field = issue.path.map(String).join(".") || "body";
  const coded = /^errors\.(BR\d{3})$/.exec(issue.message ?? "");
  if (coded) return { responseCode: coded[1], data: { field } };
  // The schema's message key ("campaigns.errors.optionsDiffer") tells a client which rule failed.
  const reason = /^[a-z]+(?:\.[A-Za-z0-9]+)+$/.test(issue.message ?? "") ? issue.message.split(".").pop()! : issue.code;
  return { responseCode: "BR025", data: { field, reason } };
}

/**
 * The body of POST /api/campaigns as a campaign input. A body that is not JSON is 400 BR025 (parseJsonBody);
 * a body that breaks the model's rules is 400 with one errorStatuses entry per problem, each naming its field:
 * BR017 for a reserved keyword, BR025 for the rest (missing, too long, unknown type, options that repeat…).
 * The envelope's own responseCode is BR025 when any entry is, otherwise the entries' code.
 */
export async function parseCampaignBody(request: Request): Promise<CampaignInput> {
  const body = await parseJsonBody(request, z.unknown());
  const parsed = campaignInput.safeParse(body);
  if (parsed.success) return parsed.data;
  const seen = new Set<string>();
  const statuses: ErrorStatus[] = [];
  for (const issue of parsed.error.issues) {
    const status = issueStatus(issue);
    const key = `${status.responseCode}:${status.data?.field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    statuses.push(status);
  }
  const code = statuses.some((s) => s.responseCode === "BR025") ? "BR025" : statuses[0].responseCode;
  throw apiError(code, null, 400, { statuses });
}

/** Printable ASCII, as HTTP headers carry; long enough for a UUID or a client's own scheme. */
const IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/;

/** The Idempotency-Key header (a retried POST with the same key gives back the campaign made the first time). */
export function idempotencyKey(request: Request): string | null {
  const value = request.headers.get("Idempotency-Key");
  if (value === null) return null;
  const trimmed = value.trim();
  if (!IDEMPOTENCY_KEY.test(trimmed)) throw apiError("BR025", null, 400, { statuses: [{ responseCode: "BR025", data: { field: "Idempotency-Key" } }] });
  return trimmed;
}

/**
 * GET /api/campaigns/{id}: the campaign (its §3 fields, responses as [{response, total}]) and what its type
 * reports: the top response, the auto responder's day and month counts, the invitation's figures and door list,
 * the draw and its winners, and the latest replies.
 */
export function campaignDetail(results: CampaignResults) {
  const { campaign, replies, repliesTotal, totals, invitation, draw, topResponse, nps, checkin, upcoming } = results;
  return {
    ...campaign,
    topResponse,
    ...(totals ? { totalToday: totals.today, totalYesterday: totals.yesterday, totalMonth: totals.month } : {}),
    ...(invitation ? { invitation } : {}),
    ...(draw
      ? {
          numberWinnersToPick: campaign.settings.numberWinnersToPick ?? null,
          draw: { entries: draw.entries, seedHash: draw.seedHash, seed: draw.seed, drawnAt: draw.drawnAt },
          winners: draw.winners,
        }
      : {}),
    // Customer experience: the §3 names, this month against last month.
    ...(nps ? { promoters: nps.promoters, passives: nps.passives, detractors: nps.detractors, currentScore: nps.currentScore, previousScore: nps.previousScore, trend: nps.trend } : {}),
    ...(checkin ? { checkin } : {}),
    // Date-driven types: the sends planned for the rest of this month (the credits they will need) and the next.
    ...(upcoming ? { plannedThisMonth: upcoming.thisMonth, nextSending: upcoming.nextAt } : {}),
    replies,
    repliesTotal,
  };
}
