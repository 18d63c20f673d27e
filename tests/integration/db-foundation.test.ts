import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { migrateToLatest } from "#db/migrator";
import { DEMO, seedDemo } from "#db/seed";
import { DIALECTS, useTestDb } from "../support/db";
import { SEED_APP } from "../support/seed";
import { createAccount } from "../support/factories";
import { verifyPassword } from "~/lib/crypto.server";
import { withinRateLimit } from "~/domain/ratelimit.server";

describe.each(DIALECTS)("database foundation (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("migrations are idempotent", async () => {
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it("seeds the demo business once and never over existing data", async () => {
    const now = new Date("2026-11-21T10:00:00Z");
    const first = await seedDemo(t.db, now, SEED_APP);
    expect(first?.email).toBe(DEMO.email);
    const business = await t.db.selectFrom("businesses").selectAll().where("phone_number", "=", DEMO.number).executeTakeFirstOrThrow();
    expect(business.onboarding).toBe("COMPLETE");
    expect(business.join_keyword).toBe("JOIN");
    const owner = await t.db.selectFrom("users").selectAll().where("email", "=", DEMO.email).executeTakeFirstOrThrow();
    expect(owner.role).toBe("ADMIN");
    expect(await verifyPassword(DEMO.password, owner.password_hash)).toBe(true);
    expect(await seedDemo(t.db, now, SEED_APP)).toBeNull();
    const count = await t.db.selectFrom("businesses").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it("does not seed when any business exists", async () => {
    await createAccount(t.db);
    expect(await seedDemo(t.db, new Date(), SEED_APP)).toBeNull();
  });

  it("enforces foreign keys", async () => {
    await expect(
      t.db.insertInto("users").values({ business_id: 999999, name: "x", email: `fk-${Date.now()}@x.test`, mobile: `+44791100${Date.now() % 10000}`, password_hash: "x", role: "ADMIN", created_at: "x" }).execute(),
    ).rejects.toThrow();
  });

  it("counts rate-limit hits in fixed windows shared through the database", async () => {
    const now = new Date("2026-11-21T10:00:10Z");
    const key = `test:${dialect}:${Date.now()}`;
    for (let i = 0; i < 3; i++) expect(await withinRateLimit(t.db, key, 3, 60, now)).toBe(true);
    expect(await withinRateLimit(t.db, key, 3, 60, now)).toBe(false);
    expect(await withinRateLimit(t.db, key, 3, 60, new Date("2026-11-21T10:01:05Z"))).toBe(true);
  });

  it("reads bigint ids back as numbers", async () => {
    const { businessId } = await createAccount(t.db);
    expect(typeof businessId).toBe("number");
    const r = await sql<{ n: number }>`select count(*) as n from users`.execute(t.db);
    expect(Number(r.rows[0].n)).toBeGreaterThan(0);
  });
});
