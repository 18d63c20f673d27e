// The login lockout holds under parallel requests: every attempt is counted before its password is
// checked, so a burst of wrong passwords cannot slip past the allowance, on the login form and on the
// API token endpoint, on SQLite and PostgreSQL.
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../support/db";
import { createAccount } from "../support/factories";
import { pageText, useTestApp } from "../support/server";
import { verifyLogin } from "~/domain/accounts/users.server";
import { AppError } from "~/lib/errors";
import { useTestDb } from "../support/db";

const BURST = 30;
const POLICY = { maxFailures: 5, lockoutMinutes: 15 };

describe.each(DIALECTS)("login lockout under parallel attempts (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  it("locks the login form after a burst of wrong passwords, even for the right one", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    await client.get("/login");
    const results = await Promise.all(
      Array.from({ length: BURST }, () => client.post("/login", { email: account.email, password: "Wrong-pass-1" })),
    );
    for (const res of results) expect([401, 403]).toContain(res.status);
    // At most the allowance had its password checked; the others were refused as locked.
    expect(results.filter((r) => r.status === 401).length).toBeLessThanOrEqual(POLICY.maxFailures - 1);
    // From another address, so the per-address rate limit is not what refuses it.
    const right = await client.request("/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "192.0.2.10" },
      body: new URLSearchParams({ email: account.email, password: account.password, _csrf: client.cookies.get("tc_csrf") ?? "" }),
    });
    expect(right.status).toBe(403);
    expect(pageText(await right.text())).toContain("Your account is locked after too many failed attempts.");
    expect(right.headers.getSetCookie().some((c) => c.startsWith("tc_session="))).toBe(false);
  });

  it("locks the API token endpoint after a burst of wrong passwords, even for the right one", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    const results = await Promise.all(
      Array.from({ length: BURST }, () =>
        client.json("/api/account/token", "POST", { email: account.email, password: "Wrong-pass-1" }, { "X-Forwarded-For": "192.0.2.20" }),
      ),
    );
    for (const res of results) expect([401, 403]).toContain(res.status);
    const right = await client.json("/api/account/token", "POST", { email: account.email, password: account.password }, { "X-Forwarded-For": "192.0.2.21" });
    expect(right.status).toBe(403);
    expect((await right.json()).responseCode).toBe("UA004");
  });
});

describe.each(DIALECTS)("verifyLogin counts before it checks (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("refuses the right password after parallel wrong ones, and counted every attempt", async () => {
    const account = await createAccount(t.db);
    const now = new Date();
    const outcomes = await Promise.allSettled(Array.from({ length: BURST }, () => verifyLogin(t.db, account.email, "Wrong-pass-1", POLICY, now)));
    const codes = outcomes.map((o) => (o.status === "rejected" && o.reason instanceof AppError ? o.reason.code : "ok"));
    expect(codes.filter((c) => c === "UA003")).toHaveLength(POLICY.maxFailures - 1);
    expect(codes.filter((c) => c === "UA004")).toHaveLength(BURST - (POLICY.maxFailures - 1));
    await expect(verifyLogin(t.db, account.email, account.password, POLICY, now)).rejects.toMatchObject({ code: "UA004" });
    // After the lockout the right password works again and clears the count.
    const later = new Date(now.getTime() + 16 * 60_000);
    await expect(verifyLogin(t.db, account.email, account.password, POLICY, later)).resolves.toBe(account.id);
    const row = await t.db.selectFrom("users").select(["failed_logins", "locked_until"]).where("id", "=", account.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_logins: 0, locked_until: null });
  });

  it("answers an unknown email like a real one: attempts left, then locked", async () => {
    const account = await createAccount(t.db);
    const now = new Date();
    const seen = async (email: string) => {
      const out: unknown[] = [];
      // Six attempts in a row, one three minutes on, then two after the lockout is over.
      const times = [0, 0, 0, 0, 0, 0, 3, 16, 16].map((m) => new Date(now.getTime() + m * 60_000));
      for (const at of times) {
        const e = await verifyLogin(t.db, email, "Wrong-pass-1", POLICY, at).catch((error: AppError) => error);
        out.push(e instanceof AppError ? { code: e.code, ...e.data } : e);
      }
      return out;
    };
    const real = await seen(account.email);
    const unknown = await seen(`nobody-${account.id}@example.test`);
    expect(unknown).toEqual(real);
    expect(real[0]).toEqual({ code: "UA003", attemptsLeft: POLICY.maxFailures - 1 });
    expect(real[4]).toEqual({ code: "UA004", minutes: POLICY.lockoutMinutes });
    expect(real[6]).toEqual({ code: "UA004", minutes: POLICY.lockoutMinutes - 3 });
    expect(real[8]).toEqual({ code: "UA003", attemptsLeft: POLICY.maxFailures - 2 });
  });
});
