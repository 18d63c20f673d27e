// Inbound processing: a worker step over the texts the webhooks stored (inbound_messages with
// processed_at NULL, deduplicated by provider id on arrival), oldest first.
//
// A text that is a single compliance keyword (any case; surrounding spaces and punctuation ignored):
//   STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT, ARRET -> opt out, confirmation once
//   START, UNSTOP, YES (OUI)  -> rejoin an opted-out member or confirm a pending opt-in, welcome text
//   HELP, INFO                -> the help text
// The business's join keyword from an unknown (or opted-out, or deleted) number starts the double
// opt-in: member PENDING + the opt-in request. Any other text from a member opens or re-activates
// the DM conversation as unread. Every opt-in and opt-out is written to consent_log.
//
// Each text is processed in one transaction that first claims it (processed_at set only if still
// NULL): a replayed or concurrently seen row changes nothing. Replies are queued as SYSTEM outbound
// rows in the same transaction, so they are sent exactly once by the pipeline. A text waits while an
// older text from the same phone to the same business is unprocessed, so STOP/START keep their order.
import type { Kysely } from "kysely";
import type { DB, Member } from "#db/types";
import { findMemberByPhone, insertMember, logConsent, transitionMember } from "~/domain/members/core.server";
import en from "~/locales/en-GB/pipeline.json";
import fr from "~/locales/fr/pipeline.json";
import { enqueueSystemText } from "./outbound.server";

type Db = Kysely<DB>;

export const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT", "ARRET"]);
export const START_WORDS = new Set(["START", "UNSTOP", "YES", "OUI"]);
export const HELP_WORDS = new Set(["HELP", "INFO", "AIDE"]);

export type InboundKind = "STOP" | "START" | "HELP" | "JOIN" | "MESSAGE" | "UNKNOWN_SENDER";

/** The keyword a text is, if it is a single word: upper case, accents and surrounding punctuation removed. */
export function keywordOf(body: string): string | null {
  const word = body
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "")
    .toUpperCase();
  if (!word || !/^[A-Z0-9]+$/.test(word)) return null;
  return word;
}

type SmsTexts = typeof en.sms;
function texts(locale: string): SmsTexts {
  return locale === "fr" ? fr.sms : en.sms;
}
function fill(template: string, business: string): string {
  return template.replace(/\{\{\s*business\s*\}\}/g, business);
}

interface InboundDeps {
  db: Db;
  now: () => Date;
}

/** Processes up to `limit` unprocessed inbound texts. Returns how many were handled. */
export async function processInbound(deps: InboundDeps, limit = 100): Promise<number> {
  const pending = await deps.db
    .selectFrom("inbound_messages")
    .select(["id"])
    .where("processed_at", "is", null)
    .orderBy("id")
    .limit(limit)
    .execute();
  let handled = 0;
  // Texts are handled a few at a time in one transaction: one commit per batch, and the database
  // connection is not handed back and forth with the webhooks between every query of every text.
  for (let i = 0; i < pending.length; i += INBOUND_BATCH) {
    const ids = pending.slice(i, i + INBOUND_BATCH).map((p) => Number(p.id));
    const now = deps.now();
    try {
      handled += await deps.db.transaction().execute(async (trx) => {
        const businesses = new Map<number, BusinessRow | undefined>();
        let n = 0;
        for (const id of ids) if (await processOneIn(trx, now, id, businesses)) n++;
        return n;
      });
    } catch {
      // One bad text must not hold back the others: handle this batch one text per transaction.
      for (const id of ids) if (await processOne(deps, id)) handled++;
    }
    // Let requests waiting for the database (webhooks, pages) go first between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return handled;
}

const INBOUND_BATCH = 10;

/** Processes one inbound text. False when it was already processed or must wait for an older one. */
export async function processOne(deps: InboundDeps, inboundId: number): Promise<boolean> {
  const now = deps.now();
  return deps.db.transaction().execute((trx) => processOneIn(trx, now, inboundId));
}

type BusinessRow = { id: number; name: string; locale: string; join_keyword: string; opt_in_message: string | null; opt_out_message: string | null; help_message: string | null };

async function processOneIn(trx: Db, now: Date, inboundId: number, businesses = new Map<number, BusinessRow | undefined>()): Promise<boolean> {
  {
    // Claim the text in one statement: only while it is unprocessed and no older text from the same
    // phone to the same business is still waiting (texts from one phone are handled in order).
    const row = await trx
      .updateTable("inbound_messages as im")
      .set({ processed_at: now.toISOString() })
      .where("im.id", "=", inboundId)
      .where("im.processed_at", "is", null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("inbound_messages as older")
              .select("older.id")
              .where("older.processed_at", "is", null)
              .where("older.id", "<", inboundId)
              .whereRef("older.business_id", "=", "im.business_id")
              .whereRef("older.from_number", "=", "im.from_number"),
          ),
        ),
      )
      .returning(["id", "business_id", "from_number", "body", "received_at"])
      .executeTakeFirst();
    if (!row) return false;

    // Within a batch most texts go to the same few businesses: look each up once.
    if (!businesses.has(row.business_id)) {
      businesses.set(
        row.business_id,
        await trx
          .selectFrom("businesses")
          .select(["id", "name", "locale", "join_keyword", "opt_in_message", "opt_out_message", "help_message"])
          .where("id", "=", row.business_id)
          .executeTakeFirst(),
      );
    }
    const business = businesses.get(row.business_id);
    if (!business) return true;
    const t = texts(business.locale);
    const phone = row.from_number;
    const evidence = row.body.slice(0, 500);
    const send = (body: string, memberId: number | null) => enqueueSystemText(trx, { businessId: business.id, to: phone, body, memberId, now });
    const optInRequest = () => (business.opt_in_message?.trim() ? business.opt_in_message : fill(t.optInRequest, business.name));
    const welcome = () => fill(t.welcome, business.name);
    const optOutText = () => (business.opt_out_message?.trim() ? business.opt_out_message : fill(t.optOut, business.name));

    let member: Member | undefined = await findMemberByPhone(trx, business.id, phone);
    const word = keywordOf(row.body);
    const joinWord = (business.join_keyword || "JOIN").trim().toUpperCase();
    let kind: InboundKind;
    const base = { businessId: business.id, phone, channel: "SMS" as const, evidence, now };

    if (word && STOP_WORDS.has(word)) {
      kind = "STOP";
      if (member) {
        if (await transitionMember(trx, member, "OPTED_OUT", ["PENDING", "SUBSCRIBED", "DELETED"], now)) {
          await logConsent(trx, { ...base, memberId: member.id, action: "OPTED_OUT" });
          await send(optOutText(), member.id);
        }
      } else {
        // Not a member: remember the opt-out (so nobody re-adds the number) and confirm once.
        const last = await trx
          .selectFrom("consent_log")
          .select("action")
          .where("business_id", "=", business.id)
          .where("phone", "=", phone)
          .orderBy("id", "desc")
          .limit(1)
          .executeTakeFirst();
        if (last?.action !== "OPTED_OUT") {
          await logConsent(trx, { ...base, memberId: null, action: "OPTED_OUT" });
          await send(optOutText(), null);
        }
      }
    } else if (word && START_WORDS.has(word) && member && member.status !== "SUBSCRIBED") {
      kind = "START";
      const wasPending = member.status === "PENDING";
      if (await transitionMember(trx, member, "SUBSCRIBED", ["PENDING", "OPTED_OUT", "DELETED"], now)) {
        await logConsent(trx, { ...base, memberId: member.id, action: wasPending ? "OPTED_IN" : "REJOINED" });
        await send(welcome(), member.id);
      }
    } else if (word && HELP_WORDS.has(word)) {
      kind = "HELP";
      await send(business.help_message?.trim() ? business.help_message : fill(t.help, business.name), member?.id ?? null);
    } else if (word === joinWord && (!member || member.status !== "SUBSCRIBED")) {
      kind = "JOIN";
      if (!member) {
        member = await insertMember(trx, { businessId: business.id, phone, status: "PENDING", now });
        await logConsent(trx, { ...base, memberId: member.id, action: "OPT_IN_REQUESTED" });
        await send(optInRequest(), member.id);
      } else if (member.status === "PENDING") {
        // Asked again: send the request again, nothing else changes.
        await send(optInRequest(), member.id);
      } else if (await transitionMember(trx, member, "PENDING", ["OPTED_OUT", "DELETED"], now)) {
        await logConsent(trx, { ...base, memberId: member.id, action: "OPT_IN_REQUESTED" });
        await send(optInRequest(), member.id);
      }
    } else if (word && START_WORDS.has(word) && !member) {
      kind = "UNKNOWN_SENDER";
    } else if (member) {
      kind = "MESSAGE";
      await trx
        .insertInto("conversations")
        .values({ business_id: business.id, member_id: member.id, state: "UNREAD", last_message_at: row.received_at, unread_count: 1 })
        .onConflict((oc) =>
          oc.columns(["business_id", "member_id"]).doUpdateSet((eb) => ({
            state: "UNREAD",
            last_message_at: eb.ref("excluded.last_message_at"),
            unread_count: eb(eb.ref("conversations.unread_count"), "+", 1),
          })),
        )
        .execute();
    } else {
      kind = "UNKNOWN_SENDER";
    }
    await trx.updateTable("inbound_messages").set({ member_id: member?.id ?? null, kind }).where("id", "=", inboundId).execute();
    return true;
  }
}
