// Group messages on both databases: the three-step draft, the idempotent send, BR013/BR025/
// BR026/BR012 refusals with nothing charged, tenancy, tracking counts (sent, delivered, failed,
// replies), pending counts, feed items, edit/delete with refunds, and durable scheduling.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createBusiness } from "../support/factories";
import { Clock, makeWorker, middayToday, pipelineDeps, seedMembers, simCounts } from "../support/pipeline";
import {
  broadcastFeedItems,
  countPendingGroupMessages,
  deleteGroupMessage,
  editGroupMessage,
  getDraft,
  listGroupMessages,
  previewDraft,
  saveDraftSchedule,
  saveDraftText,
  sendDraft,
} from "~/domain/group-messages/group-messages.server";
import { getStat } from "~/domain/stats/stats.server";
import type { Database } from "#db/index";
import { appError } from "../support/errors";

async function allowanceUsed(db: Database, businessId: number) {
  return Number((await db.selectFrom("businesses").select("allowance_used").where("id", "=", businessId).executeTakeFirstOrThrow()).allowance_used);
}

async function listGroup(db: Database, businessId: number, name: string, memberIds: number[]) {
  const at = new Date().toISOString();
  const g = await db.insertInto("groups").values({ business_id: businessId, name, type: "LIST", filter: null, created_at: at, updated_at: at }).returning("id").executeTakeFirstOrThrow();
  if (memberIds.length) await db.insertInto("group_members").values(memberIds.map((id) => ({ group_id: g.id, member_id: id, added_at: at }))).execute();
  return Number(g.id);
}

describe.each(DIALECTS)("group messages (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  beforeEach(async () => {
    clock = new Clock(middayToday());
    await t.db.deleteFrom("outbound").execute();
    await t.db.deleteFrom("sim_messages").execute();
  });

  let seq = 0;
  let shop = "";
  async function account(allowance = 1000) {
    shop = `Rosie's Bakery ${dialect} ${process.pid} ${++seq} ${Date.now() % 100000}`;
    return createAccount(t.db, { name: shop, messageAllowance: allowance });
  }

  it("walks Compose, Schedule, Preview and sends once to a list group, each member getting their own text", async () => {
    const a = await account();
    const members = await seedMembers(t.db, a.businessId, 4, { firstName: (i) => (i === 3 ? null : `Ann${i}`) });
    await seedMembers(t.db, a.businessId, 2); // not in the group
    const groupId = await listGroup(t.db, a.businessId, "Regulars", members.map((m) => m.id));
    const draftId = await saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body: "Hi {{firstName|friend}}\u200B, bread at {{businessName}}" }, clock.now());
    expect((await getDraft(t.db, a.businessId, draftId))?.body).toBe("Hi {{firstName|friend}}, bread at {{businessName}}");
    await saveDraftSchedule(t.db, { businessId: a.businessId, draftId, groupId, sendMode: "NOW", sendAt: null }, clock.now());

    const preview = await previewDraft(t.db, a.businessId, draftId, members[3].id, clock.now());
    expect(preview.recipients).toBe(4);
    expect(preview.credits).toBe(4);
    expect(preview.rendered).toBe(`Hi friend, bread at ${shop}\nReply STOP to opt out`);
    expect(preview.members.map((m) => m.id)).toEqual(members.map((m) => m.id));

    const deps = pipelineDeps(t.db, clock, 0);
    const first = await sendDraft(deps, { businessId: a.businessId, userId: a.id, draftId });
    const again = await sendDraft(deps, { businessId: a.businessId, userId: a.id, draftId });
    expect(first.created).toBe(true);
    expect(again).toEqual({ messageId: first.messageId, groupId, created: false, scheduled: false });
    expect(first.scheduled).toBe(false);
    const msgs = await t.db.selectFrom("messages").select(["id"]).where("business_id", "=", a.businessId).where("kind", "=", "GROUP").execute();
    expect(msgs).toHaveLength(1);
    expect(await allowanceUsed(t.db, a.businessId)).toBe(4);

    clock.advance(1000);
    await makeWorker(t.db, clock).drain();
    const counts = await simCounts(t.db);
    expect(members.map((m) => counts.get(m.phone))).toEqual([1, 1, 1, 1]);
    const bodies = await t.db.selectFrom("sim_messages").select(["phone", "body"]).where("direction", "=", "TO_PHONE").execute();
    expect(bodies.find((b) => b.phone === members[0].phone)?.body).toBe(`Hi Ann0, bread at ${shop}\nReply STOP to opt out`);
    expect(bodies.find((b) => b.phone === members[3].phone)?.body).toBe(`Hi friend, bread at ${shop}\nReply STOP to opt out`);
  });

  it("two concurrent sends of the same draft create one message and charge once", async () => {
    const a = await account();
    await seedMembers(t.db, a.businessId, 3);
    const draftId = await saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body: "Open late today" }, clock.now());
    await saveDraftSchedule(t.db, { businessId: a.businessId, draftId, groupId: -1, sendMode: "NOW", sendAt: null }, clock.now());
    const deps = pipelineDeps(t.db, clock);
    const results = await Promise.all([1, 2, 3].map(() => sendDraft(deps, { businessId: a.businessId, userId: a.id, draftId })));
    expect(new Set(results.map((r) => r.messageId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await allowanceUsed(t.db, a.businessId)).toBe(3);
    expect(Number((await t.db.selectFrom("outbound").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n)).toBe(3);
  });

  it("refuses empty or too long text, a past time, an empty group and another business's group, saving nothing", async () => {
    const a = await account();
    const other = await createBusiness(t.db);
    const theirs = await listGroup(t.db, other, "Theirs", []);
    const empty = await listGroup(t.db, a.businessId, "Empty", []);
    expect((await appError(saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body: " \u200B\n " }, clock.now()))).code).toBe("BR025");
    expect((await appError(saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body: "x".repeat(1601) }, clock.now()))).code).toBe("BR025");
    expect(await t.db.selectFrom("group_message_drafts").selectAll().where("business_id", "=", a.businessId).execute()).toEqual([]);
    const draftId = await saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body: "x".repeat(1600) }, clock.now());
    const past = new Date(clock.t - 60_000);
    expect((await appError(saveDraftSchedule(t.db, { businessId: a.businessId, draftId, groupId: -1, sendMode: "LATER", sendAt: past }, clock.now()))).code).toBe("BR013");
    expect((await appError(saveDraftSchedule(t.db, { businessId: a.businessId, draftId, groupId: empty, sendMode: "NOW", sendAt: null }, clock.now()))).code).toBe("BR026");
    const nf = await appError(saveDraftSchedule(t.db, { businessId: a.businessId, draftId, groupId: theirs, sendMode: "NOW", sendAt: null }, clock.now()));
    expect([nf.code, nf.status]).toEqual(["NF001", 404]);
    expect((await getDraft(t.db, a.businessId, draftId))?.groupId).toBeNull();
    // Another business cannot read or send the draft.
    expect(await getDraft(t.db, other, draftId)).toBeNull();
    expect((await appError(sendDraft(pipelineDeps(t.db, clock), { businessId: other, userId: a.id, draftId }))).status).toBe(404);
  });

  it("refuses a send the credit cannot cover with BR012, charging nothing and creating no message", async () => {
    const a = await createAccount(t.db, { trialCredits: 2 });
    await seedMembers(t.db, a.businessId, 3);
    const draftId = await saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body: "Sale on" }, clock.now());
    await saveDraftSchedule(t.db, { businessId: a.businessId, draftId, groupId: -1, sendMode: "NOW", sendAt: null }, clock.now());
    const p = await previewDraft(t.db, a.businessId, draftId, null, clock.now());
    expect([p.credits, p.creditsRemaining]).toEqual([3, 2]);
    const e = await appError(sendDraft(pipelineDeps(t.db, clock), { businessId: a.businessId, userId: a.id, draftId }));
    expect(e.code).toBe("BR012");
    expect(await t.db.selectFrom("messages").selectAll().where("business_id", "=", a.businessId).execute()).toEqual([]);
    const b = await t.db.selectFrom("businesses").select("trial_credits").where("id", "=", a.businessId).executeTakeFirstOrThrow();
    expect(Number(b.trial_credits)).toBe(2);
  });

  it("keeps a scheduled message until its time, then sends it; pending counts, stats and feed follow", async () => {
    const a = await account();
    const members = await seedMembers(t.db, a.businessId, 2);
    const groupId = await listGroup(t.db, a.businessId, "VIP", [members[0].id]);
    const draftId = await saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body: "Tomorrow: tasting evening for our VIP members, with wine and cheese from the market" }, clock.now());
    const at = new Date(clock.t + 2 * 3_600_000);
    await saveDraftSchedule(t.db, { businessId: a.businessId, draftId, groupId, sendMode: "LATER", sendAt: at }, clock.now());
    const { messageId } = await sendDraft(pipelineDeps(t.db, clock), { businessId: a.businessId, userId: a.id, draftId });

    expect(await countPendingGroupMessages(t.db, a.businessId)).toBe(1);
    expect(await countPendingGroupMessages(t.db, a.businessId, groupId)).toBe(1);
    expect(await countPendingGroupMessages(t.db, a.businessId, -1)).toBe(0);
    expect(await getStat(t.db, a.businessId, "CONTACTGROUPPENDINGMESSAGESTOTAL", { contactGroupId: groupId }, clock.now())).toBe(1);
    let feed = await broadcastFeedItems(t.db, a.businessId);
    expect(feed[0]).toMatchObject({ type: "BROADCASTMESSAGE", status: "SCHEDULED", contactGroupId: groupId, contactGroupName: "VIP", contactGroupCount: 1, nextSending: at.toISOString() });

    const worker = makeWorker(t.db, clock);
    clock.advance(3_600_000);
    await worker.drain();
    expect((await simCounts(t.db)).size).toBe(0);
    clock.set(new Date(at.getTime() + 1000));
    await worker.drain();
    const counts = await simCounts(t.db);
    expect([counts.get(members[0].phone), counts.get(members[1].phone)]).toEqual([1, undefined]);
    expect(await countPendingGroupMessages(t.db, a.businessId)).toBe(0);
    feed = await broadcastFeedItems(t.db, a.businessId);
    expect(feed[0]).toMatchObject({ status: "COMPLETE", totalSent: 1 });

    // A reply within 7 days counts; one from a non-recipient and one after the window do not.
    const reply = (memberId: number, phone: string, at: Date) =>
      t.db.insertInto("inbound_messages").values({ business_id: a.businessId, provider_id: `p${Math.random()}`, from_number: phone, to_number: "+447700900000", body: "Yes please", received_at: at.toISOString(), processed_at: at.toISOString(), member_id: memberId, kind: "MESSAGE" }).execute();
    await reply(members[0].id, members[0].phone, new Date(clock.t + 60_000));
    await reply(members[1].id, members[1].phone, new Date(clock.t + 60_000));
    await reply(members[0].id, members[0].phone, new Date(clock.t + 8 * 86_400_000));
    const list = await listGroupMessages(t.db, a.businessId, { groupId }, clock.now());
    expect(list.rows).toHaveLength(1);
    expect(list.rows[0]).toMatchObject({ id: messageId, status: "COMPLETE", recipients: 1, sent: 1, failed: 0, replies: 1, editable: false });
    expect((await listGroupMessages(t.db, a.businessId, { groupId: -1 }, clock.now())).rows).toHaveLength(0);
    expect((await listGroupMessages(t.db, a.businessId, {}, clock.now())).rows).toHaveLength(1);
    // Issued: no edit (BR014), no delete (BR015).
    expect((await appError(editGroupMessage(pipelineDeps(t.db, clock), { businessId: a.businessId, messageId, body: "x", sendMode: "NOW", sendAt: null }))).code).toBe("BR014");
    expect((await appError(deleteGroupMessage(pipelineDeps(t.db, clock), { businessId: a.businessId, messageId }))).code).toBe("BR015");
  });

  it("edits a pending message's text and time and deletes another with a refund; other businesses get 404", async () => {
    const a = await account();
    await seedMembers(t.db, a.businessId, 3);
    const deps = pipelineDeps(t.db, clock);
    const make = async (body: string) => {
      const d = await saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body }, clock.now());
      await saveDraftSchedule(t.db, { businessId: a.businessId, draftId: d, groupId: -1, sendMode: "LATER", sendAt: new Date(clock.t + 86_400_000) }, clock.now());
      return (await sendDraft(deps, { businessId: a.businessId, userId: a.id, draftId: d })).messageId;
    };
    const m1 = await make("First");
    const m2 = await make("Second");
    expect(await allowanceUsed(t.db, a.businessId)).toBe(6);
    const other = await createBusiness(t.db);
    expect((await appError(editGroupMessage(deps, { businessId: other, messageId: m1, body: "hack", sendMode: "NOW", sendAt: null }))).status).toBe(404);
    expect((await appError(deleteGroupMessage(deps, { businessId: other, messageId: m1 }))).status).toBe(404);
    expect((await appError(editGroupMessage(deps, { businessId: a.businessId, messageId: m1, body: "Later", sendMode: "LATER", sendAt: new Date(clock.t - 1000) }))).code).toBe("BR013");

    const later = new Date(clock.t + 2 * 86_400_000);
    await editGroupMessage(deps, { businessId: a.businessId, messageId: m1, body: "First, changed: {{businessName}}", sendMode: "LATER", sendAt: later });
    const row = await t.db.selectFrom("messages").select(["body", "send_at", "status"]).where("id", "=", m1).executeTakeFirstOrThrow();
    expect(row).toEqual({ body: "First, changed: {{businessName}}\nReply STOP to opt out", send_at: later.toISOString(), status: "SCHEDULED" });
    const bodies = await t.db.selectFrom("outbound").select("body").where("message_id", "=", m1).execute();
    expect(bodies.map((b) => b.body)).toEqual(Array(3).fill(`First, changed: ${shop}\nReply STOP to opt out`));

    await deleteGroupMessage(deps, { businessId: a.businessId, messageId: m2 });
    expect(await t.db.selectFrom("messages").select("id").where("id", "=", m2).execute()).toEqual([]);
    expect(await allowanceUsed(t.db, a.businessId)).toBe(3);
    expect(await countPendingGroupMessages(t.db, a.businessId)).toBe(1);
  });
});
