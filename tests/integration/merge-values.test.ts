// mergeValuesForMembers on both databases, and the pipeline rendering custom attributes per member.
import { describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { Clock, middayToday, seedMembers } from "../support/pipeline";
import { mergeValuesForMembers } from "~/domain/messaging/merge-values.server";
import { createMessage } from "~/domain/messaging/outbound.server";

describe.each(DIALECTS)("merge values (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("loads member, business and custom values in bulk, scoped to the business, and the pipeline renders them", async () => {
    const businessId = await createBusiness(t.db, { name: "Crumbs", messageAllowance: 100, phoneNumber: "+447700900555" });
    const other = await createBusiness(t.db);
    const [a, b] = await seedMembers(t.db, businessId, 2, { firstName: (i) => ["Ann", "Ben"][i] });
    const [x] = await seedMembers(t.db, other, 1);
    await t.db.updateTable("members").set({ birthday: "03-14", appointment_at: "2026-07-01T09:05:00.000Z" }).where("id", "=", a.id).execute();
    const attr = await t.db
      .insertInto("attributes")
      .values({ business_id: businessId, key: "cake", name: "Cake", type: "TEXT", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.db.insertInto("member_attribute_values").values({ business_id: businessId, member_id: a.id, attribute_id: attr.id, value_text: "Lemon", value_number: null }).execute();

    const values = await mergeValuesForMembers(t.db, businessId, [a.id, b.id, x.id], { publicUrl: "https://tc.test/" });
    expect(values.has(x.id)).toBe(false);
    const va = values.get(a.id)!;
    expect(va).toMatchObject({ firstName: "Ann", birthday: "14 March", appointmentDate: "1 July", appointmentTime: "10:05", businessName: "Crumbs", businessNumber: "07700 900555" });
    expect(va.custom).toEqual({ cake: "Lemon" });
    expect(va.memberFormLink).toMatch(/^https:\/\/tc\.test\/myinfo\/.+/);
    expect(values.get(b.id)!.custom).toEqual({});

    const clock = new Clock(middayToday());
    const sent = await createMessage(
      { db: t.db, now: clock.now, config: { messaging: { sendDelaySeconds: 60 }, publicUrl: "https://tc.test" } },
      { businessId, kind: "GROUP", groupId: -1, body: "{{firstName}}: {{attr.cake|no cake}} on {{birthday|your birthday}} at {{businessName}}" },
    );
    const rows = await t.db.selectFrom("outbound").select(["member_id", "body"]).where("message_id", "=", sent.messageId).orderBy("member_id").execute();
    expect(rows).toEqual([
      { member_id: a.id, body: "Ann: Lemon on 14 March at Crumbs\nReply STOP to opt out" },
      { member_id: b.id, body: "Ben: no cake on your birthday at Crumbs\nReply STOP to opt out" },
    ]);
  });
});
