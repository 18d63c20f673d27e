// Forgotten login domain: same answer for unknown accounts, code to the account's mobile,
// new password clears the lockout and ends every session.
import { describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createUser, createBusiness, ukMobile as baseMobile } from "../support/factories";
import { verifyPassword } from "~/lib/crypto.server";
import { parseUkMobile } from "~/lib/phone";
import { SYSTEM_SENDER } from "~/domain/accounts/codes.server";
import { deliverQueued } from "../support/pipeline";
import { createSession, findSessionUser } from "~/domain/accounts/sessions.server";
import { parseIdentifier, parseIdentifierKey, identifierKey, requestPasswordReset, resetIssueAllowance, resetPassword } from "~/domain/accounts/password-reset.server";

/** A random UK mobile that passes the strict mobile check (the shared factory's ukMobile() is not always valid). */
function ukMobile(): string {
  for (;;) {
    const m = baseMobile();
    if (parseUkMobile(m)) return m;
  }
}

const NOW = new Date("2026-11-21T10:00:00.000Z");
const later = (m: number) => new Date(NOW.getTime() + m * 60_000);
const codeFrom = (body: string) => /(\d{6})/.exec(body)![1];

describe("reset identifiers", () => {
  it("accepts an email (lower-cased) or a UK mobile (E.164), nothing else", () => {
    expect(parseIdentifier(" Sam@Example.TEST ")).toEqual({ kind: "email", value: "sam@example.test" });
    expect(parseIdentifier("07911 123456")).toEqual({ kind: "mobile", value: "+447911123456" });
    expect(parseIdentifier("hello")).toBeNull();
    expect(parseIdentifier("<b>@x.y</b>")).toBeNull();
    const id = parseIdentifier("sam@example.test")!;
    expect(parseIdentifierKey(identifierKey(id))).toEqual(id);
    expect(parseIdentifierKey("mobile:sam@example.test")).toBeNull();
  });
});

describe.each(DIALECTS)("password reset (%s)", (dialect) => {
  const t = useTestDb(dialect);
  const sms = () => SYSTEM_SENDER;
  const texts = async (phone?: string) => {
    await deliverQueued(t.db);
    return phone ? t.db.selectFrom("sim_messages").select(["id", "body"]).where("phone", "=", phone).orderBy("id").execute() : t.db.selectFrom("sim_messages").select(["id", "body"]).execute();
  };

  it("texts a code to the account's mobile, found by email or by mobile", async () => {
    const mobile = ukMobile();
    const account = await createAccount(t.db);
    await t.db.updateTable("users").set({ mobile }).where("id", "=", account.id).execute();
    expect(await requestPasswordReset(t.db, sms(), parseIdentifier(account.email)!, 3, (c) => `Code ${c}`, NOW)).toEqual({ ok: true, issuesLeft: 2 });
    const sent = await texts(mobile);
    expect(sent).toHaveLength(1);
    expect(await requestPasswordReset(t.db, sms(), parseIdentifier(mobile)!, 3, (c) => `Code ${c}`, NOW)).toEqual({ ok: true, issuesLeft: 2 });
    expect(await texts(mobile)).toHaveLength(2);
  });

  it("answers an unknown account exactly as a known one, and texts nobody", async () => {
    const before = await texts();
    const id = parseIdentifier(`nobody-${Date.now()}@example.test`)!;
    expect(await requestPasswordReset(t.db, sms(), id, 3, (c) => `Code ${c}`, NOW)).toEqual({ ok: true, issuesLeft: 2 });
    expect(await texts()).toHaveLength(before.length);
    expect(await resetPassword(t.db, id, "123456", "Another-pass9", later(1))).toBeNull();
  });

  it("caps code requests per identifier per hour, for known and unknown accounts alike", async () => {
    const account = await createAccount(t.db);
    for (const id of [parseIdentifier(account.email)!, parseIdentifier(`ghost-${Date.now()}@example.test`)!]) {
      for (let i = 0; i < 3; i++) expect((await requestPasswordReset(t.db, sms(), id, 3, (c) => c, NOW)).ok).toBe(true);
      expect(await requestPasswordReset(t.db, sms(), id, 3, (c) => c, later(1))).toEqual({ ok: false, retryAt: new Date("2026-11-21T11:00:00.000Z") });
      expect(await resetIssueAllowance(t.db, id, 3, later(1))).toEqual({ issuesLeft: 0, retryAt: new Date("2026-11-21T11:00:00.000Z") });
    }
  });

  it("sends nothing to a disabled user", async () => {
    const businessId = await createBusiness(t.db);
    const mobile = ukMobile();
    const user = await createUser(t.db, businessId, { disabled: true, mobile });
    expect((await requestPasswordReset(t.db, sms(), parseIdentifier(user.email)!, 3, (c) => c, NOW)).ok).toBe(true);
    expect(await texts(mobile)).toHaveLength(0);
  });

  it("sets the new password, clears the lockout and ends every session", async () => {
    const mobile = ukMobile();
    const businessId = await createBusiness(t.db);
    const user = await createUser(t.db, businessId, { mobile });
    await t.db.updateTable("users").set({ failed_logins: 3, locked_until: later(15).toISOString() }).where("id", "=", user.id).execute();
    const web = await createSession(t.db, user.id, "WEB", NOW);
    const api = await createSession(t.db, user.id, "API", NOW);
    const id = parseIdentifier(user.email)!;
    await requestPasswordReset(t.db, sms(), id, 3, (c) => `Code ${c}`, NOW);
    const body = (await texts(mobile)).at(-1)!.body;
    const code = codeFrom(body);
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await resetPassword(t.db, id, wrong, "Another-pass9", later(1))).toBeNull();
    expect(await findSessionUser(t.db, web.token, later(1))).not.toBeNull();
    expect(await resetPassword(t.db, id, code, "Another-pass9", later(1))).toBe(user.id);
    const row = await t.db.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.failed_logins).toBe(0);
    expect(row.locked_until).toBeNull();
    expect(await verifyPassword("Another-pass9", row.password_hash)).toBe(true);
    expect(await findSessionUser(t.db, web.token, later(1))).toBeNull();
    expect(await findSessionUser(t.db, api.token, later(1))).toBeNull();
    // Single use: the same code cannot set another password.
    expect(await resetPassword(t.db, id, code, "Third-pass77", later(2))).toBeNull();
  });
});
