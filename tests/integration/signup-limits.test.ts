// HTTP: rate limits on the account flows (per client address and per mobile / sign-up) -> 429 with
// errors.rateLimited. Its own app, so the per-address counts start at zero.
import { describe, expect, it } from "vitest";
import { parseUkMobile } from "~/lib/phone";
import { LIMITS } from "~/domain/accounts/codes.server";
import { ukMobile as baseMobile } from "../support/factories";
import { pageText, useTestApp } from "../support/server";

function ukMobile(): string {
  for (;;) {
    const m = baseMobile();
    if (parseUkMobile(m)) return m;
  }
}
const national = (e164: string) => `0${e164.slice(3, 7)} ${e164.slice(7)}`;
const RATE_LIMITED = "Too many attempts. Please wait a few minutes and try again.";
let n = 0;
const form = (mobile: string) => {
  const id = `${Date.now().toString(36)}${++n}`;
  return { company: `Limit Cafe ${id}`, name: "Sam Limit", email: `limit-${id}@example.test`, mobile: national(mobile) };
};

describe("account rate limits", () => {
  const t = useTestApp();

  it("sign-up start: per mobile, then per address", async () => {
    const mobile = ukMobile();
    for (let i = 0; i < LIMITS.signupStartMobile.limit; i++) {
      expect((await t.app.client().post("/signup", form(mobile))).status).toBe(302);
    }
    const sixth = await t.app.client().post("/signup", form(mobile));
    expect(sixth.status).toBe(429);
    expect(pageText(await sixth.text())).toContain(RATE_LIMITED);
    // The address has used limit.mobile + 1 starts; fresh mobiles go through until the address limit.
    for (let i = LIMITS.signupStartMobile.limit + 1; i < LIMITS.signupStartIp.limit; i++) {
      expect((await t.app.client().post("/signup", form(ukMobile()))).status).toBe(302);
    }
    const over = await t.app.client().post("/signup", form(ukMobile()));
    expect(over.status).toBe(429);
    const html = await over.text();
    expect(pageText(html)).toContain(RATE_LIMITED);
    expect(html).toContain("Limit Cafe");
  });

  it("PIN checks: per pending sign-up", async () => {
    const mobile = ukMobile();
    // Every test client shares one address, whose sign-up start limit the test above used up: reset that counter.
    const client = t.app.client();
    await t.app.db.deleteFrom("rate_limits").where("key", "like", "signup:ip:%").execute();
    expect((await client.post("/signup", form(mobile))).status).toBe(302);
    for (let i = 0; i < LIMITS.codeVerifySubject.limit; i++) {
      expect((await client.post("/signup/verify", { code: "000000" })).status).toBe(400);
    }
    const over = await client.post("/signup/verify", { code: "000000" });
    expect(over.status).toBe(429);
    expect(pageText(await over.text())).toContain(RATE_LIMITED);
  });

  it("forgotten login: per address", async () => {
    for (let i = 0; i < LIMITS.resetIp.limit; i++) {
      expect((await t.app.client().post("/forgotten-login", { identifier: `who-${i}-${Date.now()}@example.test` })).status).toBe(302);
    }
    const over = await t.app.client().post("/forgotten-login", { identifier: `who-over-${Date.now()}@example.test` });
    expect(over.status).toBe(429);
    expect(pageText(await over.text())).toContain(RATE_LIMITED);
  });
});
