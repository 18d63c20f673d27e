// Export files on both databases: a request is one PENDING row (a second click while it waits makes no other),
// two workers never make the same file, a file whose worker died is taken again after its lease, a file whose
// making fails is FAILED with the reason, the CSV holds the last 21 days only with the automatic check-out time,
// and files are deleted 14 days after they were made. Only check-in campaigns have an export (BR041).
import { describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { campaignInput } from "~/domain/campaigns/model";
import { createCampaign } from "~/domain/campaigns/campaigns.server";
import { buildPendingExports, deleteExpiredExports, listExportFiles, requestCheckinExport, sharedExportFile } from "~/domain/exports/exports.server";
import { AppError } from "~/lib/errors";

const DAY = 86_400_000;

describe.each(DIALECTS)("export files (%s)", (dialect) => {
  const t = useTestDb(dialect);
  const now = new Date("2027-03-30T12:00:00Z"); // BST: 13:00 in the UK

  async function setup() {
    const a = await createAccount(t.db, { messageAllowance: 1000 });
    const deps = { db: t.db, now: () => now, config: { messaging: { sendDelaySeconds: 0 } } };
    const c = await createCampaign(deps, { businessId: a.businessId, userId: a.id, input: campaignInput.parse({ type: "CHECKIN", name: "Front door", keyword: "IN", messageText: "Hi", autoCheckoutHours: 2 }) });
    return { ...a, campaignId: c.id, deps };
  }

  it("makes each file once with two workers, keeps the last 21 days, writes the automatic check-out, deletes after 14 days", async () => {
    const a = await setup();
    const [m] = await seedMembers(t.db, a.businessId, 1, { firstName: () => "Bea" });
    const visit = (ref: string, phone: string, memberId: number | null, daysAgo: number, out: string | null) =>
      ({ business_id: a.businessId, campaign_id: a.campaignId, member_id: memberId, phone, ref, source: "SMS" as const, checked_in_at: new Date(now.getTime() - daysAgo * DAY).toISOString(), checked_out_at: out });
    await t.db
      .insertInto("campaign_checkins")
      .values([
        visit(`old${dialect}00000001`, "+447700900601", null, 22, null),
        visit(`auto${dialect}0000001`, "+447700900602", null, 1, null),
        visit(`out${dialect}00000001`, m.phone, m.id, 0.25, new Date(now.getTime() - 3_600_000).toISOString()),
      ])
      .execute();
    const first = await requestCheckinExport(t.db, a.businessId, a.campaignId, now);
    expect(first.created).toBe(true);
    expect((await requestCheckinExport(t.db, a.businessId, a.campaignId, now)).fileRef).toBe(first.fileRef);
    const deps = { db: t.db, now: () => now };
    const made = await Promise.all([buildPendingExports(deps), buildPendingExports(deps)]);
    expect(made.sort()).toEqual([0, 1]);
    const { items } = await listExportFiles(t.db, a.businessId, a.campaignId);
    expect(items).toMatchObject([{ status: "AVAILABLE", rows: 2 }]);
    const file = await sharedExportFile(t.db, first.fileRef);
    expect(file.filename).toBe("front-door-check-ins-2027-03-30.csv");
    expect(file.content.split("\r\n")).toEqual([
      "Name,Mobile,Checked in,Checked out,Source",
      `,"'+447700900602",2027-03-29 13:00,2027-03-29 15:00,Text`,
      `Bea,"'${m.phone}",2027-03-30 07:00,2027-03-30 12:00,Text`,
      "",
    ]);
    // Another business never sees it; it stays 14 days, then it is gone.
    const other = await createAccount(t.db);
    expect((await listExportFiles(t.db, other.businessId, a.campaignId)).total).toBe(0);
    expect(await deleteExpiredExports({ db: t.db, now: () => new Date(now.getTime() + 13.9 * DAY) })).toBe(0);
    expect(await deleteExpiredExports({ db: t.db, now: () => new Date(now.getTime() + 14.1 * DAY) })).toBe(1);
    expect(((await sharedExportFile(t.db, first.fileRef).catch((e: unknown) => e)) as AppError).code).toBe("NF002");
  });

  it("takes a file again when its worker died, and marks a file that cannot be made FAILED", async () => {
    const a = await setup();
    const req = await requestCheckinExport(t.db, a.businessId, a.campaignId, now);
    // A worker claimed it and died.
    await t.db.updateTable("export_files").set({ status: "CREATING", claimed_at: new Date(now.getTime() - 60_000).toISOString() }).where("id", "=", req.id).execute();
    expect(await buildPendingExports({ db: t.db, now: () => now })).toBe(0);
    expect(await buildPendingExports({ db: t.db, now: () => new Date(now.getTime() + 11 * 60_000) })).toBe(1);
    expect((await listExportFiles(t.db, a.businessId, a.campaignId)).items[0].status).toBe("AVAILABLE");
    // A file for a campaign the business no longer has cannot be made.
    const other = await createAccount(t.db);
    await t.db
      .insertInto("export_files")
      .values({ business_id: other.businessId, campaign_id: a.campaignId, file_ref: `broken${dialect}0123456789`, status: "PENDING", rows: null, content: null, error: null, claimed_at: null, created_at: now.toISOString(), finished_at: null })
      .execute();
    expect(await buildPendingExports({ db: t.db, now: () => now })).toBe(1);
    const broken = await t.db.selectFrom("export_files").select(["status", "error", "finished_at"]).where("file_ref", "=", `broken${dialect}0123456789`).executeTakeFirstOrThrow();
    expect(broken.status).toBe("FAILED");
    expect(broken.error).toBeTruthy();
    expect(broken.finished_at).toBe(now.toISOString());
  });

  it("refuses a campaign type without an export (BR041) and another business's campaign", async () => {
    const a = await setup();
    const survey = await createCampaign(a.deps, {
      businessId: a.businessId,
      userId: a.id,
      input: campaignInput.parse({ type: "BOUNCEBACK", name: "Auto", keyword: "HELLO", messageText: "Hello!" }),
    });
    expect(((await requestCheckinExport(t.db, a.businessId, survey.id, now).catch((e: unknown) => e)) as AppError).code).toBe("BR041");
    const other = await createAccount(t.db);
    expect(((await requestCheckinExport(t.db, other.businessId, a.campaignId, now).catch((e: unknown) => e)) as AppError).status).toBe(404);
    expect(await t.db.selectFrom("export_files").select("id").where("campaign_id", "in", [survey.id, a.campaignId]).execute()).toHaveLength(0);
  });
});
