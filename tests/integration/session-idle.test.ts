// Web sessions end after a period without requests (and 30 days after sign-in in any case); their last
// use is written at most once a minute, so most requests only read.
import { describe, expect, it } from "vitest";
import { createSession, findSessionUser } from "~/domain/accounts/sessions.server";
import { sha256 } from "~/lib/crypto.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount } from "../support/factories";
import { useTestApp } from "../support/server";

const IDLE = { idleMinutes: 12 * 60 };
const minutes = (start: Date, n: number) => new Date(start.getTime() + n * 60_000);

describe.each(DIALECTS)("session idle timeout (%s)", (dialect) => {
  const t = useTestDb(dialect);
  const lastSeen = async (token: string) =>
    (await t.db.selectFrom("sessions").select("last_seen_at").where("id", "=", sha256(token)).executeTakeFirst())?.last_seen_at;

  it("keeps a web session that is used, and ends one left idle", async () => {
    const account = await createAccount(t.db);
    const start = new Date("2026-11-20T09:00:00.000Z");
    const { token } = await createSession(t.db, account.id, "WEB", start);
    // Used every 11 hours: never idle for 12, so it lives on.
    for (let h = 11; h <= 55; h += 11) expect(await findSessionUser(t.db, token, minutes(start, h * 60), IDLE)).not.toBeNull();
    // Then 12 hours and a minute without a request: gone, and stays gone.
    const idleUntil = minutes(start, 55 * 60 + 12 * 60 + 1);
    expect(await findSessionUser(t.db, token, idleUntil, IDLE)).toBeNull();
    expect(await findSessionUser(t.db, token, minutes(start, 55 * 60 + 1), IDLE)).toBeNull();
  });

  it("still ends a busy session 30 days after sign-in", async () => {
    const account = await createAccount(t.db);
    const start = new Date("2026-11-20T09:00:00.000Z");
    const { token } = await createSession(t.db, account.id, "WEB", start);
    for (let h = 11; h < 30 * 24; h += 11) expect(await findSessionUser(t.db, token, minutes(start, h * 60), IDLE)).not.toBeNull();
    expect(await findSessionUser(t.db, token, minutes(start, 30 * 24 * 60 + 1), IDLE)).toBeNull();
  });

  it("writes the last use at most once a minute", async () => {
    const account = await createAccount(t.db);
    const start = new Date("2026-11-20T09:00:00.000Z");
    const { token } = await createSession(t.db, account.id, "WEB", start);
    await findSessionUser(t.db, token, new Date(start.getTime() + 30_000), IDLE);
    expect(await lastSeen(token)).toBeNull();
    const later = minutes(start, 2);
    await findSessionUser(t.db, token, later, IDLE);
    expect(await lastSeen(token)).toBe(later.toISOString());
    await findSessionUser(t.db, token, new Date(later.getTime() + 59_000), IDLE);
    expect(await lastSeen(token)).toBe(later.toISOString());
  });

  it("leaves API tokens to their own expiry", async () => {
    const account = await createAccount(t.db);
    const start = new Date("2026-11-20T09:00:00.000Z");
    const { token } = await createSession(t.db, account.id, "API", start);
    expect(await findSessionUser(t.db, token, minutes(start, 23 * 60), { idleMinutes: 60 })).not.toBeNull();
  });
});

describe("session idle timeout over HTTP", () => {
  const t = useTestApp({ env: { SESSION_IDLE_HOURS: "1" } });

  it("sends a browser whose session sat idle past SESSION_IDLE_HOURS back to login", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    await client.login(account.email, account.password);
    expect((await client.get("/")).status).toBe(200);
    // The session was last used 61 minutes ago.
    const token = client.cookies.get("tc_session")!;
    const past = new Date(Date.now() - 61 * 60_000).toISOString();
    await t.app.db.updateTable("sessions").set({ created_at: past, last_seen_at: past }).where("id", "=", sha256(token)).execute();
    const res = await client.get("/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
  });
});
