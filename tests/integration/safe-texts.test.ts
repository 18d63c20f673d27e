// Safe texts on both databases: misspelt or unknown merge tags are refused at compose time with the closest known
// tag, marketing texts always carry a way to stop, and a business's own opt-in and opt-out texts must name it and
// say how to join and stop.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness, createUser } from "../support/factories";
import { appError } from "../support/errors";
import { Clock, middayToday, pipelineDeps, seedMembers } from "../support/pipeline";
import { createMessage } from "~/domain/messaging/outbound.server";
import { previewDraft, saveDraftSchedule, saveDraftText } from "~/domain/group-messages/group-messages.server";
import { businessTexts, updateOptTexts } from "~/domain/members/community.server";
import { checkConsentTexts } from "~/domain/consent/consent.server";

describe("the business's own consent texts", () => {
  const ok = { optIn: "Corner Café: reply YES to get our offers. Reply STOP to opt out.", optOut: "Corner Café: you will get no more texts." };
  it.each([
    [{ ...ok, optIn: "Hello there from us" }, "optIn", "optInBusiness"],
    [{ ...ok, optIn: "Corner Café says hello! Reply STOP any time." }, "optIn", "optInYes"],
    [{ ...ok, optIn: "Corner Café: reply YES to join." }, "optIn", "optInStop"],
    [{ ...ok, optOut: "You are unsubscribed." }, "optOut", "optOutBusiness"],
  ])("refuses %j", (input, field, context) => {
    try {
      checkConsentTexts("Corner Café", input);
      throw new Error("accepted");
    } catch (e) {
      expect(e).toMatchObject({ code: "BR025", field, data: expect.objectContaining({ context }) });
    }
  });

  it("accepts texts that name the business (or use its tag) and say how to join and stop, and empty ones (the defaults)", () => {
    expect(checkConsentTexts("Corner Café", ok)).toEqual(ok);
    expect(checkConsentTexts("Corner Café", { optIn: "{{businessName}}: répondez OUI pour nos textos, STOP pour arrêter", optOut: "" })).toEqual({
      optIn: "{{businessName}}: répondez OUI pour nos textos, STOP pour arrêter",
      optOut: null,
    });
  });
});

describe.each(DIALECTS)("safe texts (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });

  it("refuses a misspelt or unknown merge tag in a DM or a group message, naming the closest tag, and queues nothing", async () => {
    const businessId = await createBusiness(t.db, { trialCredits: 100 });
    const [m] = await seedMembers(t.db, businessId, 1);
    const deps = pipelineDeps(t.db, clock);
    const misspelt = await appError(createMessage(deps, { businessId, kind: "DM", body: "Hi {{firstname}}", recipients: [m.id] }));
    expect(misspelt).toMatchObject({ code: "BR025", field: "messageText", data: { context: "mergeTag", tag: "{{firstname}}", suggestion: "{{firstName}}" } });
    const unknown = await appError(createMessage(deps, { businessId, kind: "GROUP", body: "Hi {{nosuchtag}}", groupId: -1 }));
    expect(unknown).toMatchObject({ code: "BR025", data: { context: "unknownTag", tag: "{{nosuchtag}}" } });
    expect(await t.db.selectFrom("messages").select("id").where("business_id", "=", businessId).execute()).toHaveLength(0);
    // The composer refuses it at the first step.
    const user = await createUser(t.db, businessId);
    expect((await appError(saveDraftText(t.db, { businessId, userId: user.id, body: "Hello {{attr.cake}}" }, clock.now()))).data).toEqual({ context: "unknownTag", tag: "{{attr.cake}}" });
  });

  it("adds the opt-out line to a group text that lacks one (shown in the preview, counted and sent), never to a DM", async () => {
    const businessId = await createBusiness(t.db, { trialCredits: 100 });
    const [m] = await seedMembers(t.db, businessId, 1);
    const user = await createUser(t.db, businessId);
    const draftId = await saveDraftText(t.db, { businessId, userId: user.id, body: "Fresh bread today, {{firstName}}!" }, clock.now());
    await saveDraftSchedule(t.db, { businessId, draftId, groupId: -1, sendMode: "NOW", sendAt: null }, clock.now());
    const preview = await previewDraft(t.db, businessId, draftId, null, clock.now());
    expect(preview.optOutLineAdded).toBe(true);
    expect(preview.rendered).toBe(`Fresh bread today, Member0!\nReply STOP to opt out`);
    const deps = pipelineDeps(t.db, clock);
    await createMessage(deps, { businessId, kind: "GROUP", body: "Fresh bread today!", groupId: -1 });
    await createMessage(deps, { businessId, kind: "GROUP", body: "Offer! Text STOP to leave", groupId: -1 });
    await createMessage(deps, { businessId, kind: "DM", body: "See you at 3", recipients: [m.id] });
    const bodies = (await t.db.selectFrom("outbound").select("body").where("business_id", "=", businessId).orderBy("id").execute()).map((r) => r.body);
    expect(bodies).toEqual(["Fresh bread today!\nReply STOP to opt out", "Offer! Text STOP to leave", "See you at 3"]);
  });

  it("saves opt-in and opt-out texts only when they follow the rules, and fills in the business name", async () => {
    const businessId = await createBusiness(t.db, { name: "Tidy Cuts" });
    expect((await appError(updateOptTexts(t.db, businessId, { optIn: "Hello there from us", optOut: "" }))).field).toBe("optIn");
    expect((await businessTexts(t.db, businessId)).business.opt_in_message).toBeNull();
    await updateOptTexts(t.db, businessId, { optIn: "{{businessName}}: reply YES for offers, STOP to stop", optOut: "" });
    expect((await businessTexts(t.db, businessId)).optIn).toBe("Tidy Cuts: reply YES for offers, STOP to stop");
  });
});
