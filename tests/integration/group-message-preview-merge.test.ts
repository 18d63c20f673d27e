// The group-message preview shows exactly what each member receives: custom {{attr.key}}
// values, the member form link and business tags render through the pipeline's own path, and the
// credits the preview announces are the credits the send charges (both databases).
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount } from "../support/factories";
import { Clock, middayToday, pipelineDeps, seedMembers } from "../support/pipeline";
import { previewDraft, saveDraftSchedule, saveDraftText, sendDraft } from "~/domain/group-messages/group-messages.server";
import { ALL_SUBSCRIBERS } from "~/domain/messaging/outbound.server";
import { analyse } from "~/domain/messaging/segments";

const PUBLIC_URL = "https://app.textcircle.test";

describe.each(DIALECTS)("group-message preview with custom merge tags (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });

  it("renders a custom attribute tag in the preview, and the send charges the preview's credits", async () => {
    const shop = `Cake Shop ${dialect} ${process.pid} ${Date.now() % 100000}`;
    const a = await createAccount(t.db, { name: shop, messageAllowance: 1000 });
    const members = await seedMembers(t.db, a.businessId, 4, { firstName: (i) => ["Ann", "Bob", "Cat", "Dan"][i] });
    const at = clock.now().toISOString();
    const attr = await t.db
      .insertInto("attributes")
      .values({ business_id: a.businessId, key: "favouriteCake", name: "Favourite cake", type: "TEXT", show_on_form: 0, member_can_edit: 0, mandatory: 0, position: 1, created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    // A long value (the text runs into a second segment), a short one, a non-GSM one (UCS-2), and none (fallback).
    const long = "Victoria sponge with fresh strawberries, clotted cream and a dusting of icing sugar, baked this morning";
    const values: (string | null)[] = [long, "Lemon drizzle", "Bánh bò", null];
    for (const [i, v] of values.entries()) {
      if (v !== null) {
        await t.db.insertInto("member_attribute_values").values({ member_id: members[i].id, attribute_id: attr.id, business_id: a.businessId, value_text: v, value_number: null }).execute();
      }
    }
    const body = "Hi {{firstName}}, your {{attr.favouriteCake|usual cake}} is ready at {{businessName}}. Change your details: {{memberFormLink}}";
    const draftId = await saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body }, clock.now());
    await saveDraftSchedule(t.db, { businessId: a.businessId, draftId, groupId: ALL_SUBSCRIBERS, sendMode: "NOW", sendAt: null }, clock.now());

    const refs = new Map(
      (await t.db.selectFrom("members").select(["id", "unique_ref"]).where("business_id", "=", a.businessId).execute()).map((m) => [Number(m.id), m.unique_ref]),
    );
    const expected = members.map(
      (m, i) => `Hi ${["Ann", "Bob", "Cat", "Dan"][i]}, your ${values[i] ?? "usual cake"} is ready at ${shop}. Change your details: ${PUBLIC_URL}/myinfo/${refs.get(m.id)}\nReply STOP to opt out`,
    );
    const expectedCredits = expected.reduce((n, b) => n + analyse(b).segments, 0);
    // The figures differ from member to member, so a preview that ignored the custom values would count differently.
    expect(new Set(expected.map((b) => analyse(b).segments)).size).toBeGreaterThan(1);

    for (const [i, m] of members.entries()) {
      const p = await previewDraft(t.db, a.businessId, draftId, m.id, clock.now(), PUBLIC_URL);
      expect(p.member?.id).toBe(m.id);
      expect(p.rendered).toBe(expected[i]);
      expect(p.renderedSegments).toBe(analyse(expected[i]).segments);
    }
    const preview = await previewDraft(t.db, a.businessId, draftId, null, clock.now(), PUBLIC_URL);
    expect(preview.recipients).toBe(4);
    expect(preview.credits).toBe(expectedCredits);

    const deps = { ...pipelineDeps(t.db, clock, 0), config: { messaging: { sendDelaySeconds: 0 }, publicUrl: PUBLIC_URL } };
    const sent = await sendDraft(deps, { businessId: a.businessId, userId: a.id, draftId });
    const msg = await t.db.selectFrom("messages").select(["credits", "recipients"]).where("id", "=", sent.messageId).executeTakeFirstOrThrow();
    expect(Number(msg.recipients)).toBe(preview.recipients);
    expect(Number(msg.credits)).toBe(preview.credits);
    const used = await t.db.selectFrom("businesses").select("allowance_used").where("id", "=", a.businessId).executeTakeFirstOrThrow();
    expect(Number(used.allowance_used)).toBe(preview.credits);
    const rows = await t.db.selectFrom("outbound").select(["member_id", "body", "segments"]).where("message_id", "=", sent.messageId).execute();
    expect(new Map(rows.map((r) => [Number(r.member_id), r.body]))).toEqual(new Map(members.map((m, i) => [m.id, expected[i]])));
    expect(rows.reduce((n, r) => n + Number(r.segments), 0)).toBe(preview.credits);
  });
});
