// Support chat domain (app/domain/support) on SQLite and PostgreSQL: one open session per user,
// stable ids, newest-first messages, and no reaching into another business's or user's session.
import { describe, expect, it } from "vitest";
import {
  addSupportMessage,
  closeSupportSession,
  findOpenSupportSession,
  getOrCreateSupportSession,
  getSupportMessages,
} from "~/domain/support/support.server";
import { AppError } from "~/lib/errors";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createUser } from "../support/factories";

describe.each(DIALECTS)("support sessions (%s)", (dialect) => {
  const t = useTestDb(dialect);
  const now = new Date("2026-11-21T10:00:00.000Z");

  async function member() {
    const a = await createAccount(t.db);
    return { userId: a.id, businessId: a.businessId };
  }

  it("finds or creates one open session per user", async () => {
    const me = await member();
    expect(await findOpenSupportSession(t.db, me)).toBeNull();
    const id = await getOrCreateSupportSession(t.db, me, now);
    expect(await getOrCreateSupportSession(t.db, me, now)).toBe(id);
    const teammate = { userId: (await createUser(t.db, me.businessId, { role: "TEAM" })).id, businessId: me.businessId };
    const theirs = await getOrCreateSupportSession(t.db, teammate, now);
    expect(theirs).not.toBe(id);
    const rows = await t.db.selectFrom("support_sessions").select(["user_id", "business_id", "status", "created_at"]).where("id", "=", id).execute();
    expect(rows).toEqual([{ user_id: me.userId, business_id: me.businessId, status: "OPEN", created_at: now.toISOString() }]);
  });

  it("agrees on one session when calls race", async () => {
    const me = await member();
    const ids = await Promise.all(Array.from({ length: 6 }, () => getOrCreateSupportSession(t.db, me, now)));
    const after = await getOrCreateSupportSession(t.db, me, now);
    // Every answer was one of the caller's own sessions, and from now on the answer is stable.
    const owned = await t.db.selectFrom("support_sessions").select("id").where("user_id", "=", me.userId).where("business_id", "=", me.businessId).execute();
    for (const id of ids) expect(owned.map((r) => r.id)).toContain(id);
    expect(ids).toContain(after);
    expect(await getOrCreateSupportSession(t.db, me, now)).toBe(after);
    expect(await findOpenSupportSession(t.db, me)).toBe(after);
  });

  it("starts a new session after the open one is closed; closing another's is not found", async () => {
    const me = await member();
    const other = await member();
    const first = await getOrCreateSupportSession(t.db, me, now);
    await expect(closeSupportSession(t.db, other, first)).rejects.toMatchObject({ code: "NF001" });
    await closeSupportSession(t.db, me, first);
    const second = await getOrCreateSupportSession(t.db, me, now);
    expect(second).not.toBe(first);
  });

  it("reads the open session's messages newest first, limited to 1..50", async () => {
    const me = await member();
    const id = await getOrCreateSupportSession(t.db, me, now);
    expect(await getSupportMessages(t.db, me, 1)).toEqual([]);
    for (let i = 0; i < 55; i++) {
      await addSupportMessage(t.db, me, id, i % 2 ? "AGENT" : "USER", `message ${i}`, new Date(now.getTime() + i * 1000));
    }
    expect(await getSupportMessages(t.db, me, 1)).toEqual([
      { text: "message 54", sender: "USER", createdAt: new Date(now.getTime() + 54_000).toISOString() },
    ]);
    const many = await getSupportMessages(t.db, me, 500);
    expect(many).toHaveLength(50);
    expect(many[0].text).toBe("message 54");
    expect(many[49].text).toBe("message 5");
    expect(await getSupportMessages(t.db, me, 0)).toHaveLength(1);
  });

  it("keeps messages out of sessions the caller does not own, and refuses empty or huge text", async () => {
    const me = await member();
    const other = await member();
    const theirs = await getOrCreateSupportSession(t.db, other, now);
    await expect(addSupportMessage(t.db, me, theirs, "USER", "sneaky", now)).rejects.toMatchObject({ code: "NF001" });
    const mine = await getOrCreateSupportSession(t.db, me, now);
    for (const text of ["", "   ", "x".repeat(5001)]) {
      const err = await addSupportMessage(t.db, me, mine, "USER", text, now).catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe("BR025");
    }
    await addSupportMessage(t.db, me, mine, "USER", "'; DROP TABLE support_messages; -- <b>hi</b>", now);
    expect((await getSupportMessages(t.db, me, 5)).map((m) => m.text)).toEqual(["'; DROP TABLE support_messages; -- <b>hi</b>"]);
    expect(await getSupportMessages(t.db, other, 5)).toEqual([]);
  });
});
