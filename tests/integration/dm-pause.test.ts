// The send pause for direct messages, on both databases: a short pause of its own (not the group one), undo while
// it lasts, too late afterwards, and a member who opts out during it sees "not sent", not "failed".
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { appError } from "../support/errors";
import { Clock, makeWorker, middayToday, seedMembers } from "../support/pipeline";
import { getThread, sendDirectMessage, undoDirectMessage } from "~/domain/conversations/conversations.server";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { processInbound } from "~/domain/messaging/inbound-processing.server";
import { textsReceivedBy } from "~/domain/simulator/simulator.server";

describe.each(DIALECTS)("direct message pause (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });
  const deps = () => ({ db: t.db, now: clock.now, config: { messaging: { sendDelaySeconds: 60, dmSendDelaySeconds: 5 } } });

  it("pauses a DM for its own short delay, shows when it goes, and can be undone until then", async () => {
    const businessId = await createBusiness(t.db, { trialCredits: 10 });
    const [m] = await seedMembers(t.db, businessId, 1);
    const sent = await sendDirectMessage(deps(), { businessId, memberId: m.id, body: "Oops, wrong person", createdBy: null });
    const msg = await t.db.selectFrom("messages").select(["send_at", "editable_until"]).where("id", "=", sent.messageId).executeTakeFirstOrThrow();
    expect(Date.parse(msg.editable_until) - clock.now().getTime()).toBe(5000);
    const [item] = (await getThread(t.db, businessId, m.id, {}, clock.now())).items;
    expect(item).toMatchObject({ state: "SENDING_SOON", messageId: sent.messageId, editableUntil: msg.editable_until });
    // Another member's thread cannot undo it.
    const [other] = await seedMembers(t.db, businessId, 1);
    expect((await appError(undoDirectMessage(deps(), { businessId, memberId: other.id, messageId: sent.messageId }))).status).toBe(404);
    clock.advance(3000);
    await undoDirectMessage(deps(), { businessId, memberId: m.id, messageId: sent.messageId });
    expect((await getThread(t.db, businessId, m.id, {}, clock.now())).items).toEqual([]);
    await makeWorker(t.db, clock).drain();
    expect(await textsReceivedBy(t.db, m.phone)).toHaveLength(0);
    const used = await t.db.selectFrom("businesses").select("trial_credits").where("id", "=", businessId).executeTakeFirstOrThrow();
    expect(used.trial_credits).toBe(10);
  });

  it("refuses an undo once the pause is over (BR015) and the text goes", async () => {
    const businessId = await createBusiness(t.db, { trialCredits: 10 });
    const [m] = await seedMembers(t.db, businessId, 1);
    const sent = await sendDirectMessage(deps(), { businessId, memberId: m.id, body: "On its way", createdBy: null });
    clock.advance(6000);
    expect((await appError(undoDirectMessage(deps(), { businessId, memberId: m.id, messageId: sent.messageId }))).code).toBe("BR015");
    await makeWorker(t.db, clock).drain();
    expect(await textsReceivedBy(t.db, m.phone)).toHaveLength(1);
  });

  it("says 'not sent' for a DM whose member opted out during the pause", async () => {
    const businessId = await createBusiness(t.db, { trialCredits: 10 });
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const [m] = await seedMembers(t.db, businessId, 1);
    await sendDirectMessage(deps(), { businessId, memberId: m.id, body: "Your order is ready", createdBy: null });
    clock.advance(1000);
    await receiveInbound({ db: t.db }, { providerId: `SMpause${dialect}${Date.now()}`, from: m.phone, to: biz, body: "STOP", receivedAt: clock.now() });
    await processInbound({ db: t.db, now: clock.now });
    clock.advance(6000);
    await makeWorker(t.db, clock).drain();
    const items = (await getThread(t.db, businessId, m.id, {}, clock.now())).items.filter((i) => i.direction === "out" && i.kind === "DM");
    expect(items.map((i) => i.state)).toEqual(["NOT_SENT"]);
  });
});
