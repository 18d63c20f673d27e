// The CSV import runs in ONE transaction (never half-finished). This suite makes a later batch
// fail on a real database constraint the importer does not pre-check — the member form reference
// (members.unique_ref is UNIQUE) is made to repeat an earlier one part-way through the second batch —
// and proves that nothing the first batch wrote survives: no members, no status changes, no consent
// rows, no attribute values, and the job is still waiting for confirmation (it can be run again).
import { afterEach, describe, expect, it, vi } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { createImportJob, getImportJob, runImport } from "~/domain/import/import.server";
import type { Database } from "#db/index";

const refs = vi.hoisted(() => ({ armed: false, calls: 0, failFrom: Infinity, first: "" }));

vi.mock("~/domain/members/core.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/domain/members/core.server")>();
  return {
    ...real,
    newMemberRef: () => {
      const ref = real.newMemberRef();
      if (!refs.armed) return ref;
      refs.calls++;
      if (refs.calls === 1) refs.first = ref;
      return refs.calls >= refs.failFrom ? refs.first : ref;
    },
  };
});

const NOW = new Date("2026-11-21T12:00:00Z");
const ROWS = 1200; // more than two batches of 500

afterEach(() => {
  Object.assign(refs, { armed: false, calls: 0, failFrom: Infinity, first: "" });
});

async function counts(db: Database, businessId: number) {
  const n = async (table: "members" | "consent_log" | "member_attribute_values") =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).executeTakeFirstOrThrow()).n);
  return { members: await n("members"), consent: await n("consent_log"), values: await n("member_attribute_values") };
}

describe.each(DIALECTS)("member import rolls back whole (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("a constraint failure in the second batch leaves nothing written, and the job can run again", async () => {
    const businessId = await createBusiness(t.db);
    const [pending] = await seedMembers(t.db, businessId, 1, { status: "PENDING", firstName: () => "Before" });
    const attr = await t.db
      .insertInto("attributes")
      .values({ business_id: businessId, key: "visits", name: "Visits", type: "NUMBER", created_at: NOW.toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Row 1 updates the pending member (subscribes them, logs consent); the rest are new members.
    const lines = ["Mobile,First name,Visits", `0${pending.phone.slice(3)},After,7`];
    for (let i = 1; i < ROWS; i++) lines.push(`07400 ${String(100000 + i)},Person ${i},${i}`);
    const jobId = await createImportJob(t.db, { businessId, userId: null, filename: "big.csv", bytes: new TextEncoder().encode(lines.join("\r\n")), now: NOW });
    const mapping = ["phone", "firstName", `attr:${attr.id}`];
    const before = await counts(t.db, businessId);
    expect(before).toEqual({ members: 1, consent: 0, values: 0 });

    // The 600th new member (in the second batch of 500) repeats the first member's form reference.
    Object.assign(refs, { armed: true, failFrom: 600 });
    await expect(runImport(t.db, { businessId, jobId, mapping, consent: true, now: NOW })).rejects.toThrow();
    // The first batch really was written before the failure: its 499 new members had their references made.
    expect(refs.calls).toBeGreaterThanOrEqual(600);

    expect(await counts(t.db, businessId)).toEqual(before);
    expect(await t.db.selectFrom("members").select(["status", "first_name", "joined_at"]).where("id", "=", pending.id).executeTakeFirstOrThrow()).toMatchObject({
      status: "PENDING",
      first_name: "Before",
    });
    const job = await getImportJob(t.db, businessId, jobId);
    expect([job.status, job.added, job.finished_at]).toEqual(["MAPPING", 0, null]);
    expect(job.content.length).toBeGreaterThan(0);

    // Once the fault is gone, the same job runs to the end.
    Object.assign(refs, { armed: false });
    const done = await runImport(t.db, { businessId, jobId, mapping, consent: true, now: NOW });
    expect([done.status, done.added, done.updated, done.skipped]).toEqual(["DONE", ROWS, 0, 0]);
    expect(await counts(t.db, businessId)).toEqual({ members: ROWS, consent: ROWS, values: ROWS });
  });
});
