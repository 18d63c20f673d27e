// The public API (/api/v1/) described once: each operation's method, path, scope, and the zod schemas of its path,
// query, body and answer, with an example of each. The route modules validate requests with these very schemas,
// and the OpenAPI document (openapi.server.ts) is generated from them, so the two cannot drift apart.
// Bodies and queries are strict: an unknown field is refused (UA002 naming it), as is a value of the wrong type.
import { z } from "zod";
import type { ApiScope } from "~/domain/apikeys/keys.server";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface Operation {
  id: string;
  method: HttpMethod;
  /** The OpenAPI path, with {param} placeholders. */
  path: string;
  scope: ApiScope;
  tag: "Members" | "Messages" | "Groups" | "Group messages" | "Campaigns";
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The success status and its answer (null: 204 No Content). */
  status: 200 | 201 | 204;
  response: z.ZodType | null;
  /** POSTs that create something accept an Idempotency-Key header. */
  idempotent?: boolean;
  examples: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; response?: unknown };
}

// ---- shared pieces ----

const id = z.string().regex(/^[1-9][0-9]{0,14}$/).describe("A positive whole number");
const cursor = z.string().regex(/^[1-9][0-9]{0,14}$/).describe("The nextCursor of the previous page");
const limitOf = (max: number) => z.string().regex(/^[1-9][0-9]{0,3}$/).refine((v) => Number(v) <= max, `at most ${max}`).describe(`1 to ${max}`);
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const shortText = (max: number) => z.string().max(max).refine((v) => !CONTROL.test(v), "no control characters");
const messageText = z
  .string()
  .min(1)
  .max(1600)
  .refine((v) => v.trim().length > 0, "must not be blank")
  .refine((v) => !CONTROL.test(v), "no control characters")
  .describe("The text (at most 1,600 characters; merge tags such as {{firstName}} are filled in for each member)");
const isoInstant = z.iso.datetime({ offset: true }).describe("An ISO-8601 instant, e.g. 2026-12-01T18:00:00.000Z");

export const memberStatus = z.enum(["PENDING", "SUBSCRIBED", "OPTED_OUT"]);

export const memberSummary = z.object({
  id: z.number().int(),
  phone: z.string().describe("E.164, e.g. +447700900456"),
  firstName: z.string().nullable(),
  fullName: z.string().nullable(),
  status: memberStatus,
  joinedAt: z.string().nullable(),
  invitedAt: z.string().nullable(),
  updatedAt: z.string(),
});

export const member = memberSummary.extend({
  birthday: z.string().nullable().describe("dd/mm"),
  appointmentAt: z.string().nullable(),
  note: z.string().nullable(),
  optedOutAt: z.string().nullable(),
  createdAt: z.string(),
  attributes: z.record(z.string(), z.union([z.string(), z.number()])).describe("Custom attributes by key"),
});

const memberFields = {
  firstName: shortText(40).nullable().optional(),
  fullName: shortText(40).nullable().optional(),
  birthday: z.string().max(10).nullable().optional().describe("dd/mm"),
  appointmentDate: z.string().max(10).nullable().optional().describe("YYYY-MM-DD, UK time (with appointmentTime)"),
  appointmentTime: z.string().max(5).nullable().optional().describe("HH:MM, UK time"),
  note: z.string().max(5000).nullable().optional(),
  attributes: z
    .record(z.string().max(60), z.union([z.string().max(5000), z.number(), z.null()]))
    .optional()
    .describe("Custom attributes by key; a list attribute takes one of its items' labels; null clears a value"),
};

export const consentSource = z
  .discriminatedUnion("source", [
    z.strictObject({ source: z.literal("DOUBLE_OPT_IN") }).describe("Text the opt-in request; the member joins when they reply YES"),
    z
      .strictObject({ source: z.literal("PRIOR_CONSENT"), evidence: shortText(500).refine((v) => v.trim().length >= 5, "say how consent was given") })
      .describe("The business already holds the member's consent (the evidence is kept in the consent log); subscribed at once, nothing texted"),
  ])
  .describe("How the member consented");

export const addMemberBody = z.strictObject({
  phone: z.string().min(1).max(25).describe("A UK mobile number, 07… or +447…"),
  ...memberFields,
  consent: consentSource,
});

export const updateMemberBody = z.strictObject({ phone: z.string().min(1).max(25).optional(), ...memberFields });

export const sendMessageBody = z.strictObject({ text: messageText });

export const createGroupMessageBody = z.strictObject({
  contactGroupId: z.number().int().min(-1).refine((v) => v !== 0, "a group id, or -1 for every subscribed member").describe("A group id, or -1 for every subscribed member"),
  text: messageText,
  sendAt: isoInstant.nullable().optional().describe("When to send (in the future); missing or null: now, after the sending-soon pause"),
});

const threadItem = z.object({
  id: z.string(),
  direction: z.enum(["in", "out"]),
  text: z.string(),
  at: z.string(),
  state: z.enum(["RECEIVED", "SCHEDULED", "SENDING_SOON", "SENDING", "SENT", "DELIVERED", "FAILED", "NOT_SENT"]),
  kind: z.enum(["DM", "GROUP", "CAMPAIGN", "SYSTEM"]).nullable(),
});

export const conversation = z.object({
  member: z.object({ id: z.number().int(), name: z.string(), phone: z.string(), status: z.enum(["PENDING", "SUBSCRIBED", "OPTED_OUT", "DELETED"]) }),
  conversation: z.object({ state: z.string(), unreadCount: z.number().int(), snoozedUntil: z.string().nullable() }).nullable(),
  items: z.array(threadItem),
  earlier: z.string().nullable().describe("Pass as `before` for the page before this one"),
});

export const sentMessage = z.object({
  messageId: z.number().int(),
  memberId: z.number().int(),
  status: z.string(),
  credits: z.number().int(),
  sendingAt: z.string().describe("When the text leaves (after the short direct-message pause)"),
});

export const group = z.object({ id: z.number().int(), name: z.string().nullable(), type: z.enum(["ALL", "LIST", "SMART", "CAMPAIGN"]), subscribed: z.number().int() });
const groupMember = z.object({ id: z.number().int(), phone: z.string(), firstName: z.string().nullable(), fullName: z.string().nullable(), status: z.string() });

export const groupMessage = z.object({
  id: z.number().int(),
  text: z.string(),
  contactGroupId: z.number().int(),
  contactGroupName: z.string().nullable(),
  status: z.enum(["SCHEDULED", "SENDING_SOON", "SENDING", "SENT", "FAILED"]),
  sendAt: z.string(),
  editableUntil: z.string(),
  deletable: z.boolean().describe("True until the message is issued"),
  recipients: z.number().int(),
  credits: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
  replies: z.number().int(),
});

const campaignSummary = z.looseObject({
  id: z.number().int(),
  type: z.string(),
  kind: z.enum(["ONETIME", "ONGOING"]),
  name: z.string(),
  status: z.string(),
  totalSent: z.number().int(),
  totalReceived: z.number().int(),
  responses: z.array(z.object({ response: z.string(), total: z.number().int() })),
});

export const campaignDetail = campaignSummary.extend({
  topResponse: z.object({ response: z.string(), total: z.number().int(), percent: z.number().int() }).nullable(),
  replies: z.array(z.looseObject({ memberId: z.number().int().nullable(), response: z.string(), at: z.string() })),
  repliesTotal: z.number().int(),
});

export const errorEnvelope = z.object({
  responseCode: z.string(),
  data: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  errorStatuses: z.array(z.object({ responseCode: z.string(), data: z.record(z.string(), z.union([z.string(), z.number()])).optional() })),
});

const list = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable().describe("Pass as `after` for the next page; null on the last") });

// ---- examples ----

const exampleMember = {
  id: 17,
  phone: "+447700900456",
  firstName: "Ann",
  fullName: "Ann Lee",
  status: "SUBSCRIBED",
  joinedAt: "2026-11-24T10:00:00.000Z",
  invitedAt: null,
  updatedAt: "2026-11-24T10:00:00.000Z",
};
const exampleMemberFull = { ...exampleMember, birthday: "21/03", appointmentAt: null, note: null, optedOutAt: null, createdAt: "2026-11-24T10:00:00.000Z", attributes: { favouriteDrink: "Latte" } };
const exampleGroupMessage = {
  id: 88,
  text: "Late opening on Friday until 9pm!\nReply STOP to opt out",
  contactGroupId: -1,
  contactGroupName: null,
  status: "SCHEDULED",
  sendAt: "2026-12-04T09:00:00.000Z",
  editableUntil: "2026-12-04T09:00:00.000Z",
  deletable: true,
  recipients: 120,
  credits: 120,
  sent: 0,
  delivered: 0,
  failed: 0,
  replies: 0,
};
const exampleCampaign = {
  id: 41,
  type: "POLL",
  kind: "ONETIME",
  name: "Saturday opening",
  status: "LIVE",
  totalSent: 1204,
  totalReceived: 388,
  responses: [
    { response: "Yes", total: 240 },
    { response: "No", total: 98 },
  ],
};

// ---- the operations ----

/** The {id} of a path (a member, group message or campaign). */
const memberId = z.strictObject({ id });

export const OPERATIONS = {
  listMembers: {
    id: "listMembers",
    method: "GET",
    path: "/api/v1/members",
    scope: "members:read",
    tag: "Members",
    summary: "List members",
    description: "Members by id, ascending; `q` searches names, numbers and attribute values. Keyset paging: pass the answer's nextCursor as `after`.",
    query: z.strictObject({ q: z.string().max(100).optional(), status: memberStatus.optional(), after: cursor.optional(), limit: limitOf(100).optional() }),
    status: 200,
    response: list(memberSummary),
    examples: { query: { q: "Ann", limit: "50" }, response: { items: [exampleMember], nextCursor: null } },
  },
  addMember: {
    id: "addMember",
    method: "POST",
    path: "/api/v1/members",
    scope: "members:write",
    tag: "Members",
    summary: "Add a member",
    description:
      "With consent DOUBLE_OPT_IN the member is invited (PENDING) and texted the opt-in request; PRIOR_CONSENT subscribes them at once on the business's word, with its evidence kept. BR021: already a member; BR039: the number opted out (only they can rejoin); BR049: a mandatory attribute is missing; BR050: not a UK mobile number.",
    body: addMemberBody,
    status: 201,
    response: member,
    idempotent: true,
    examples: {
      body: { phone: "07700 900456", firstName: "Ann", fullName: "Ann Lee", birthday: "21/03", attributes: { favouriteDrink: "Latte" }, consent: { source: "PRIOR_CONSENT", evidence: "Signed the paper form at the till on 20 November 2026" } },
      response: exampleMemberFull,
    },
  },
  getMember: {
    id: "getMember",
    method: "GET",
    path: "/api/v1/members/{id}",
    scope: "members:read",
    tag: "Members",
    summary: "Get a member",
    params: memberId,
    status: 200,
    response: member,
    examples: { params: { id: "17" }, response: exampleMemberFull },
  },
  updateMember: {
    id: "updateMember",
    method: "PATCH",
    path: "/api/v1/members/{id}",
    scope: "members:write",
    tag: "Members",
    summary: "Update a member's details and attributes",
    description: "Only the fields given change; null clears a field.",
    params: memberId,
    body: updateMemberBody,
    status: 200,
    response: member,
    examples: { params: { id: "17" }, body: { firstName: "Annie", attributes: { favouriteDrink: "Flat white" } }, response: { ...exampleMemberFull, firstName: "Annie", attributes: { favouriteDrink: "Flat white" } } },
  },
  optOutMember: {
    id: "optOutMember",
    method: "POST",
    path: "/api/v1/members/{id}/optout",
    scope: "members:write",
    tag: "Members",
    summary: "Opt a member out",
    description: "The member is OPTED_OUT and texted the opt-out confirmation once; only they can rejoin, by texting.",
    params: memberId,
    status: 200,
    response: member,
    examples: { params: { id: "17" }, response: { ...exampleMemberFull, status: "OPTED_OUT", optedOutAt: "2026-11-25T10:00:00.000Z" } },
  },
  getConversation: {
    id: "getConversation",
    method: "GET",
    path: "/api/v1/members/{id}/messages",
    scope: "messages:read",
    tag: "Messages",
    summary: "A member's conversation",
    description: "Texts both ways, oldest first, the newest `limit`; `earlier` pages back.",
    params: memberId,
    query: z.strictObject({ before: z.string().max(60).optional(), limit: limitOf(200).optional() }),
    status: 200,
    response: conversation,
    examples: {
      params: { id: "17" },
      query: { limit: "50" },
      response: {
        member: { id: 17, name: "Ann Lee", phone: "+447700900456", status: "SUBSCRIBED" },
        conversation: { state: "READ", unreadCount: 0, snoozedUntil: null },
        items: [
          { id: "out-301", direction: "out", text: "Your table is ready", at: "2026-11-24T18:00:00.000Z", state: "DELIVERED", kind: "DM" },
          { id: "in-77", direction: "in", text: "On my way!", at: "2026-11-24T18:01:10.000Z", state: "RECEIVED", kind: null },
        ],
        earlier: null,
      },
    },
  },
  sendMessage: {
    id: "sendMessage",
    method: "POST",
    path: "/api/v1/members/{id}/messages",
    scope: "messages:write",
    tag: "Messages",
    summary: "Send a direct message",
    description: "Charged per segment like a message sent in the app (BR012 without enough credit). BR027: the member has not confirmed their opt-in yet; BR039: they opted out.",
    params: memberId,
    body: sendMessageBody,
    status: 201,
    response: sentMessage,
    idempotent: true,
    examples: { params: { id: "17" }, body: { text: "Hi {{firstName}}, your order is ready to collect." }, response: { messageId: 301, memberId: 17, status: "SENDING_SOON", credits: 1, sendingAt: "2026-11-24T18:00:05.000Z" } },
  },
  listGroups: {
    id: "listGroups",
    method: "GET",
    path: "/api/v1/groups",
    scope: "members:read",
    tag: "Groups",
    summary: "List groups",
    description: "Every subscribed member (id -1) first, then the business's groups by name, with subscribed counts.",
    status: 200,
    response: z.object({ items: z.array(group) }),
    examples: { response: { items: [{ id: -1, name: null, type: "ALL", subscribed: 120 }, { id: 3, name: "Regulars", type: "LIST", subscribed: 40 }] } },
  },
  listGroupMembers: {
    id: "listGroupMembers",
    method: "GET",
    path: "/api/v1/groups/{id}/members",
    scope: "members:read",
    tag: "Groups",
    summary: "A group's members",
    description: "Subscribed and pending members of the group by id, ascending (keyset paging with `after`).",
    params: z.strictObject({ id: z.string().regex(/^(-1|[1-9][0-9]{0,14})$/).describe("A group id, or -1 for every member") }),
    query: z.strictObject({ after: cursor.optional(), limit: limitOf(200).optional() }),
    status: 200,
    response: list(groupMember),
    examples: { params: { id: "3" }, query: { limit: "100" }, response: { items: [{ id: 17, phone: "+447700900456", firstName: "Ann", fullName: "Ann Lee", status: "SUBSCRIBED" }], nextCursor: null } },
  },
  listGroupMessages: {
    id: "listGroupMessages",
    method: "GET",
    path: "/api/v1/groupmessages",
    scope: "messages:read",
    tag: "Group messages",
    summary: "List group messages",
    description: "Newest first, 20 a page, with delivery counts and replies.",
    query: z.strictObject({ contactGroupId: z.string().regex(/^(-1|[1-9][0-9]{0,14})$/).optional(), page: limitOf(10000).optional() }),
    status: 200,
    response: z.object({ items: z.array(groupMessage), total: z.number().int(), page: z.number().int(), pageCount: z.number().int() }),
    examples: { query: { page: "1" }, response: { items: [exampleGroupMessage], total: 1, page: 1, pageCount: 1 } },
  },
  createGroupMessage: {
    id: "createGroupMessage",
    method: "POST",
    path: "/api/v1/groupmessages",
    scope: "messages:write",
    tag: "Group messages",
    summary: "Create or schedule a group message",
    description: "The opt-out line is added. Without sendAt it goes after the sending-soon pause; quiet hours apply. BR013: sendAt not in the future; BR026: nobody in the group; BR012: not enough credit.",
    body: createGroupMessageBody,
    status: 201,
    response: groupMessage,
    idempotent: true,
    examples: { body: { contactGroupId: -1, text: "Late opening on Friday until 9pm!", sendAt: "2026-12-04T09:00:00.000Z" }, response: exampleGroupMessage },
  },
  getGroupMessage: {
    id: "getGroupMessage",
    method: "GET",
    path: "/api/v1/groupmessages/{id}",
    scope: "messages:read",
    tag: "Group messages",
    summary: "Get a group message",
    params: memberId,
    status: 200,
    response: groupMessage,
    examples: { params: { id: "88" }, response: exampleGroupMessage },
  },
  deleteGroupMessage: {
    id: "deleteGroupMessage",
    method: "DELETE",
    path: "/api/v1/groupmessages/{id}",
    scope: "messages:write",
    tag: "Group messages",
    summary: "Delete a group message not yet issued",
    description: "Its credits are refunded. BR015 once it has been issued.",
    params: memberId,
    status: 204,
    response: null,
    examples: { params: { id: "88" } },
  },
  listCampaigns: {
    id: "listCampaigns",
    method: "GET",
    path: "/api/v1/campaigns",
    scope: "messages:read",
    tag: "Campaigns",
    summary: "List campaigns",
    description: "Headed by status as the campaigns page shows them, newest first within each.",
    query: z.strictObject({ kind: z.enum(["ONETIME", "ONGOING"]).optional(), page: limitOf(10000).optional(), pageSize: limitOf(100).optional() }),
    status: 200,
    response: z.object({ items: z.array(campaignSummary), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }),
    examples: { query: { kind: "ONETIME" }, response: { items: [exampleCampaign], total: 1, page: 1, pageSize: 20 } },
  },
  getCampaign: {
    id: "getCampaign",
    method: "GET",
    path: "/api/v1/campaigns/{id}",
    scope: "messages:read",
    tag: "Campaigns",
    summary: "A campaign's results",
    description: "Responses, the top response, the latest 50 replies and each type's own figures (as GET /api/campaigns/{id}).",
    params: memberId,
    status: 200,
    response: campaignDetail,
    examples: {
      params: { id: "41" },
      response: { ...exampleCampaign, topResponse: { response: "Yes", total: 240, percent: 62 }, replies: [{ memberId: 17, name: "Ann Lee", phone: "+447700900456", response: "1", responseOption: "Yes", at: "2026-11-28T09:04:11.000Z" }], repliesTotal: 388 },
    },
  },
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof OPERATIONS;
