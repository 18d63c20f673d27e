import { describe, expect, it } from "vitest";
import { cancelAccount, sendCancelCode } from "~/domain/billing/cancel.server";
import { changeSubscription } from "~/domain/billing/subscription.server";
import { DEFAULT_BILLING } from "~/domain/billing/money";
import { SimulatorPaymentProvider } from "~/providers/payments/simulator.server";
import { SimulatorSmsProvider } from "~/providers/sms/simulator.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createTeamUser } from "../support/factories";
import { seedMembers } from "../support/pipeline";

describe.each(DIALECTS)("cancelling an account (%s)", (dialect) => {
  const t = useTestDb(dialect);
  const now = new Date();

  async function account() {
    const a = await createAccount(t.db, { trialCredits: 50 });
    const number = `+447700${String(900500 + a.businessId).slice(-6)}`;
    await t.db.updateTable("businesses").set({ phone_number: number }).where("id", "=", a.businessId).execute();
    await t.db.insertInto("sim_numbers").values({ number, assigned_at: now.toISOString() }).execute();
    await seedMembers(t.db, a.businessId, 2);
    await changeSubscription(t.db, new SimulatorPaymentProvider(t.db, () => now), DEFAULT_BILLING, { businessId: a.businessId, businessName: "Shop", kind: "activate", planId: "s250", card: { number: "4242424242424242", expiry: "12/40", cvc: "123", name: "A" }, returnUrl: "/x/{id}" }, now);
    return { ...a, number };
  }

  it("texts a code to the Administrator; a wrong code deletes nothing; the right one deletes everything and gives the number back", async () => {
    const a = await account();
    const sms = new SimulatorSmsProvider(t.db, () => now);
    let code = "";
    const sent = await sendCancelCode(t.db, { businessId: a.businessId, userId: a.id, sender: "+447700900000", maxIssues: 3, message: (c) => ((code = c), `code ${c}`) }, now);
    expect(sent).toMatchObject({ ok: true });
    expect(code).toMatch(/^\d{6}$/);
    const text = await t.db.selectFrom("messages").select("body").where("body", "=", `code ${code}`).executeTakeFirst();
    expect(text).toBeDefined();

    const wrong = code === "000000" ? "111111" : "000000";
    await expect(cancelAccount(t.db, sms, a.businessId, wrong, now)).rejects.toMatchObject({ code: "BR008" });
    expect(await t.db.selectFrom("businesses").select("id").where("id", "=", a.businessId).executeTakeFirst()).toBeDefined();
    expect(await t.db.selectFrom("sim_numbers").select("number").where("number", "=", a.number).executeTakeFirst()).toBeDefined();

    await cancelAccount(t.db, sms, a.businessId, code, now);
    expect(await t.db.selectFrom("businesses").select("id").where("id", "=", a.businessId).executeTakeFirst()).toBeUndefined();
    for (const table of ["users", "members", "payments", "subscriptions", "credit_ledger"] as const) {
      expect(await t.db.selectFrom(table).select("business_id").where("business_id", "=", a.businessId).execute(), table).toEqual([]);
    }
    expect(await t.db.selectFrom("sim_numbers").select("number").where("number", "=", a.number).executeTakeFirst()).toBeUndefined();
    // The code cannot be used twice.
    await expect(cancelAccount(t.db, sms, a.businessId, code, now)).rejects.toMatchObject({ code: "BR008" });
  });

  it("refuses a team member (FB001)", async () => {
    const a = await account();
    const team = await createTeamUser(t.db, a.businessId);
    await expect(sendCancelCode(t.db, { businessId: a.businessId, userId: team.id, sender: "+447700900000", maxIssues: 3, message: (c) => c }, now)).rejects.toMatchObject({ code: "FB001" });
  });
});
