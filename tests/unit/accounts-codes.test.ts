// PIN / verification codes: issue, check, expiry, single use, wrong-try limit, re-issue cap.
import { describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { CODE_MAX_ATTEMPTS, CODE_TTL_MINUTES, checkCode, issueAllowance, issueCode } from "~/domain/accounts/codes.server";

const T0 = new Date("2026-11-21T10:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
let n = 0;
const subject = () => `subject-${Date.now()}-${++n}`;
const wrongOf = (code: string) => (code === "000000" ? "111111" : "000000");

describe.each(DIALECTS)("verification codes (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("issues a 6-digit code stored only as a hash, valid for 10 minutes", async () => {
    const s = subject();
    const issued = await issueCode(t.db, "SIGNUP", s, 3, T0);
    if (!issued.ok) throw new Error("expected a code");
    expect(issued.code).toMatch(/^[0-9]{6}$/);
    expect(issued.expiresAt.toISOString()).toBe(at(CODE_TTL_MINUTES).toISOString());
    expect(issued.issuesLeft).toBe(2);
    const rows = await t.db.selectFrom("verification_codes").selectAll().where("subject", "=", s).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).not.toContain(issued.code);
    expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("accepts the right code once only", async () => {
    const s = subject();
    const issued = await issueCode(t.db, "SIGNUP", s, 3, T0);
    if (!issued.ok) throw new Error("expected a code");
    expect(await checkCode(t.db, "SIGNUP", s, issued.code, at(1))).toEqual({ ok: true });
    expect(await checkCode(t.db, "SIGNUP", s, issued.code, at(2))).toEqual({ ok: false, reason: "missing" });
  });

  it("does not accept a code for another purpose or subject", async () => {
    const s = subject();
    const issued = await issueCode(t.db, "SIGNUP", s, 3, T0);
    if (!issued.ok) throw new Error("expected a code");
    expect((await checkCode(t.db, "RESET", s, issued.code, at(1))).ok).toBe(false);
    expect((await checkCode(t.db, "SIGNUP", subject(), issued.code, at(1))).ok).toBe(false);
    expect(await checkCode(t.db, "SIGNUP", s, issued.code, at(1))).toEqual({ ok: true });
  });

  it("refuses an expired code, even the right one", async () => {
    const s = subject();
    const issued = await issueCode(t.db, "RESET", s, 3, T0);
    if (!issued.ok) throw new Error("expected a code");
    expect(await checkCode(t.db, "RESET", s, issued.code, at(CODE_TTL_MINUTES))).toEqual({ ok: false, reason: "expired" });
  });

  it("counts wrong tries and voids the code after the limit", async () => {
    const s = subject();
    const issued = await issueCode(t.db, "SIGNUP", s, 3, T0);
    if (!issued.ok) throw new Error("expected a code");
    for (let i = 1; i <= CODE_MAX_ATTEMPTS; i++) {
      expect(await checkCode(t.db, "SIGNUP", s, wrongOf(issued.code), at(1))).toEqual({ ok: false, reason: "wrong", attemptsLeft: CODE_MAX_ATTEMPTS - i });
    }
    expect(await checkCode(t.db, "SIGNUP", s, issued.code, at(1))).toEqual({ ok: false, reason: "exhausted" });
  });

  it("a new code voids the previous one", async () => {
    const s = subject();
    const first = await issueCode(t.db, "SIGNUP", s, 3, T0);
    const second = await issueCode(t.db, "SIGNUP", s, 3, at(1));
    if (!first.ok || !second.ok) throw new Error("expected codes");
    expect(second.issuesLeft).toBe(1);
    const rows = await t.db.selectFrom("verification_codes").select(["used_at"]).where("subject", "=", s).orderBy("id").execute();
    expect(rows.map((r) => r.used_at)).toEqual([at(1).toISOString(), null]);
    expect(await checkCode(t.db, "SIGNUP", s, second.code, at(2))).toEqual({ ok: true });
  });

  it("caps re-issues per hour; the last code still works; an hour after the first the cap lifts", async () => {
    const s = subject();
    await issueCode(t.db, "SIGNUP", s, 3, T0);
    await issueCode(t.db, "SIGNUP", s, 3, at(5));
    const last = await issueCode(t.db, "SIGNUP", s, 3, at(10));
    if (!last.ok) throw new Error("expected a third code");
    expect(last.issuesLeft).toBe(0);
    const refused = await issueCode(t.db, "SIGNUP", s, 3, at(12));
    expect(refused).toEqual({ ok: false, retryAt: at(60) });
    expect(await issueAllowance(t.db, "SIGNUP", s, 3, at(12))).toEqual({ issuesLeft: 0, retryAt: at(60) });
    expect(await checkCode(t.db, "SIGNUP", s, last.code, at(13))).toEqual({ ok: true });
    const later = await issueCode(t.db, "SIGNUP", s, 3, at(61));
    expect(later.ok).toBe(true);
  });
});
