// Failed sign-ins are limited per address; sign-ins that work are never counted, so a team sharing one connection
// is not shut out by its own logins.
import { describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { pageText, useTestApp } from "../support/server";

describe("login limit per address", () => {
  const t = useTestApp();

  it("never counts sign-ins that work, and refuses the address after 30 failures with its own message", async () => {
    const owner = await createAccount(t.app.db);
    for (let i = 0; i < 40; i++) {
      const ok = await t.app.client().post("/login", { email: owner.email, password: owner.password });
      expect(ok.status).toBe(302);
    }
    // Thirty failures spread over many accounts (none of them reaches its own lock).
    const others = await Promise.all(Array.from({ length: 10 }, () => createAccount(t.app.db)));
    for (let i = 0; i < 30; i++) {
      const res = await t.app.client().post("/login", { email: others[i % 10].email, password: "Wrong-pass-1" });
      expect(res.status).toBe(401);
    }
    const refused = await t.app.client().post("/login", { email: owner.email, password: owner.password });
    expect(refused.status).toBe(429);
    expect(pageText(await refused.text())).toContain("Too many failed sign-ins from your connection. Try again in 5 minutes.");
  });
});
