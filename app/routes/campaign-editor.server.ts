// The create and edit pages of every campaign type share this loader and action (not a route: each type's page
// at its own path, /bounceback, /onequestion, /quickpoll, /invitation and /pickwinners, calls them with its type).
// ?id=N edits that campaign; another business's id is a 404, and once anything was sent the page says so (BR028).
// A new form carries an idempotency key made when the form is drawn, so pressing "Create" twice makes one campaign.
import { randomUUID } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { setToast } from "remix-toast/middleware";
import { campaignFormSchema, isoToFormDateTime } from "~/components/campaign-form-schema";
import { createCampaign, getCampaign, updateCampaign } from "~/domain/campaigns/campaigns.server";
import { TYPE_KINDS, TYPE_PATHS, type CampaignTypeName, type CampaignView } from "~/domain/campaigns/model";
import { listGroupChoices } from "~/domain/group-messages/groups.server";
import { customMergeTags } from "~/domain/messaging/merge-tags.server";
import { integrationMergeTags } from "~/domain/shop/integration.server";
import { listAttributes } from "~/domain/members/attributes.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage, formText, replyWithError } from "~/lib/forms.server";
import { utcToUkDateTime } from "~/lib/uk-time";

/** Attribute types a one-question answer can be written into (free text, or a number). */
const ANSWER_ATTRIBUTE_TYPES = new Set(["TEXT", "NUMBER", "NOTE"]);

function campaignIdParam(request: Request): number | null {
  const raw = new URL(request.url).searchParams.get("id");
  if (raw === null) return null;
  if (!/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) <= 0) throw data(null, { status: 404 });
  return Number(raw);
}

const str = (v: unknown) => (typeof v === "string" ? v : "");
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(v) : "");

/** The form's starting values: a new campaign's sensible defaults, or the campaign being edited. */
function formDefaults(type: CampaignTypeName, campaign: CampaignView | null, now: Date): Record<string, unknown> {
  if (!campaign) {
    // Closes (or draws) a week from now at 18:00 UK time; an invitation's event the day after.
    const week = utcToUkDateTime(new Date(now.getTime() + 7 * 86_400_000));
    const later = utcToUkDateTime(new Date(Math.ceil((now.getTime() + 3_600_000) / 3_600_000) * 3_600_000));
    return {
      issueMode: "NOW",
      issueDate: later.date,
      issueTime: later.time,
      // An ongoing campaign runs until it is ended; a one-time one closes (or draws) a week from now.
      closeDate: TYPE_KINDS[type] === "ONGOING" ? "" : week.date,
      closeTime: TYPE_KINDS[type] === "ONGOING" ? "" : "18:00",
      contactGroupId: "-1",
      responseOptions: type === "INVITATION" ? ["YES", "NO"] : [],
      entrySource: "GROUP",
      numberWinnersToPick: "1",
      excludeWinnersDays: "0",
      ...(type === "CUSTOMEREXP" ? { contactGroupId: "0" } : {}),
      sendTime: "10:00",
      dateAttribute: "appointment",
      daysBefore: "1",
      duration: "1",
      durationUnit: "DAYS",
      includeJoinedWithinDays: "0",
    };
  }
  const s = campaign.settings ?? {};
  const issue = isoToFormDateTime(campaign.issueDate);
  const close = isoToFormDateTime(campaign.closeDate);
  const event = isoToFormDateTime(str(s.eventDate));
  const future = campaign.issueDate !== null && Date.parse(campaign.issueDate) > now.getTime();
  return {
    name: campaign.name,
    keyword: campaign.keyword ?? "",
    messageText: campaign.messageText ?? "",
    thankYouText: campaign.thankYouText ?? "",
    contactGroupId: campaign.contactGroupId === null ? (type === "CUSTOMEREXP" ? "0" : "-1") : String(campaign.contactGroupId),
    issueMode: future ? "LATER" : "NOW",
    issueDate: issue.date,
    issueTime: issue.time,
    closeDate: close.date,
    closeTime: close.time,
    responseOptions: Array.isArray(s.responseOptions) ? s.responseOptions.map(String) : type === "INVITATION" ? ["YES", "NO"] : [],
    acceptText: str(s.acceptText),
    declineText: str(s.declineText),
    capacity: num(s.capacity),
    allowPartySize: s.allowPartySize === true ? "on" : undefined,
    eventDate: event.date,
    eventTime: event.time,
    remindDayBefore: s.remindDayBefore === true ? "on" : undefined,
    reminderText: str(s.reminderText),
    attributeKey: str(s.attributeKey),
    entrySource: s.entrySource === "KEYWORD" ? "KEYWORD" : "GROUP",
    numberWinnersToPick: num(s.numberWinnersToPick) || "1",
    excludeWinnersDays: num(s.excludeWinnersDays) || "0",
    sendTime: str(s.sendTime) || "10:00",
    dateAttribute: str(s.dateAttribute) || "appointment",
    daysBefore: num(s.daysBefore) || "1",
    duration: num(s.duration) || "1",
    durationUnit: str(s.durationUnit) || "DAYS",
    includeJoinedWithinDays: num(s.includeJoinedWithinDays) || "0",
    autoCheckoutHours: num(s.autoCheckoutHours),
    introText: str(s.introText),
    scoreQuestionText: str(s.scoreQuestionText),
    detractorQuestionText: str(s.detractorQuestionText),
    promoterQuestionText: str(s.promoterQuestionText),
    detractorThankYouText: str(s.detractorThankYouText),
    promoterThankYouText: str(s.promoterThankYouText),
    reviewLink: str(s.reviewLink),
  };
}

export async function campaignEditorLoader({ request, context }: LoaderFunctionArgs, type: CampaignTypeName) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const id = campaignIdParam(request);
  const campaign = id === null ? null : await getCampaign(db, user.businessId, id);
  if (id !== null && !campaign) throw data(null, { status: 404 });
  // An id of another type opens that type's own page.
  if (campaign && campaign.type !== type) throw redirect(`${TYPE_PATHS[campaign.type]}?id=${campaign.id}`);
  const [groups, customTags, attributes, integrationTags] = await Promise.all([
    type === "BOUNCEBACK" ? Promise.resolve([]) : listGroupChoices(db, user.businessId),
    customMergeTags(db, user.businessId),
    type === "ONEQUESTION" || type === "REMINDER" ? listAttributes(db, user.businessId) : Promise.resolve([]),
    integrationMergeTags(db, user.businessId),
  ]);
  return {
    type,
    campaign: campaign ? { id: campaign.id, name: campaign.name, editable: campaign.editable, status: campaign.status } : null,
    groups,
    customTags,
    integrationTags,
    attributes: type === "ONEQUESTION" ? attributes.filter((a) => ANSWER_ATTRIBUTE_TYPES.has(a.type)).map((a) => ({ key: a.key, name: a.name })) : [],
    // A reminder follows the appointment or a date attribute of the business's own.
    dateAttributes: [
      { key: "appointment", name: "appointment" },
      ...attributes.filter((a) => a.type === "DATE" && a.key !== "appointment" && a.key !== "memberLastUpdated").map((a) => ({ key: a.key, name: a.name })),
    ],
    defaults: formDefaults(type, campaign, now()),
    idempotencyKey: randomUUID(),
  };
}

export async function campaignEditorAction({ request, context }: ActionFunctionArgs, type: CampaignTypeName) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const id = campaignIdParam(request);
  if (id !== null) {
    const existing = await getCampaign(deps.db, user.businessId, id);
    if (!existing || existing.type !== type) throw data(null, { status: 404 });
  }
  const form = await request.formData();
  const submission = parseWithZod(form, { schema: campaignFormSchema(type) });
  if (submission.status !== "success") return data({ result: submission.reply(), askEmptyGroup: false }, { status: 400 });
  const input = submission.value;
  try {
    const view =
      id === null
        ? await createCampaign(deps, { businessId: user.businessId, userId: user.userId, input, idempotencyKey: formText(form, "idempotencyKey").slice(0, 100) || null })
        : await updateCampaign(deps, { businessId: user.businessId, campaignId: id, input, actorId: user.userId });
    setToast(context, { type: "success", message: id === null ? "campaigns.toast.created" : "campaigns.toast.saved" });
    return redirect(`/viewcampaign?id=${view.id}`);
  } catch (error) {
    // A draw from a group with no members today asks the owner to confirm (the form shows a checkbox).
    if (error instanceof AppError && error.code === "BR026" && input.type === "PICKWINNERS" && !input.confirmEmptyGroup) {
      return data({ result: submission.reply({ fieldErrors: { contactGroupId: [errorMessage(error)] } }), askEmptyGroup: true }, { status: 400 });
    }
    const reply = replyWithError(submission, error);
    return data({ result: reply.data.result, askEmptyGroup: false }, { status: reply.init?.status ?? 400 });
  }
}
