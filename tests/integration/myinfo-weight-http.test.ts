// The member's page (/myinfo/{ref}) and the public join page are opened from a text, often on a slow
// phone connection. They work without JavaScript and ship none: no script tag, no modulepreload link.
// What a first visit downloads (the HTML and its stylesheet, gzipped) stays small.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { createAccount, ukMobile } from "../support/factories";
import { useTestApp } from "../support/server";

const gzipped = (bytes: Buffer | string) => zlib.gzipSync(bytes, { level: 6 }).length;

function stylesheetsOf(html: string): string[] {
  return [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)].map((m) => /\bhref="([^"]+)"/.exec(m[0])![1]);
}

describe("pages opened from a text", () => {
  const t = useTestApp();

  it("/myinfo/{ref} and /join/{slug} carry no JavaScript, and a first visit is under 15 kB gzipped", async () => {
    const account = await createAccount(t.app.db, { name: `Bakery ${Math.random().toString(36).slice(2, 8)}` });
    const owner = t.app.client();
    await owner.login(account.email, account.password);
    const phone = ukMobile();
    expect((await owner.post("/invitemember", { phone, firstName: "Ann" })).status).toBe(302);
    const member = await t.app.db.selectFrom("members").select("unique_ref").where("business_id", "=", account.businessId).where("phone", "=", phone).executeTakeFirstOrThrow();
    const business = await t.app.db.selectFrom("businesses").select("referral_code").where("id", "=", account.businessId).executeTakeFirstOrThrow();

    for (const url of [`/myinfo/${member.unique_ref}`, `/join/${business.referral_code}`]) {
      const res = await t.app.client().get(url);
      expect(res.status, url).toBe(200);
      const html = await res.text();
      expect(html, url).not.toMatch(/<script\b/i);
      expect(html, url).not.toContain("modulepreload");
      const css = stylesheetsOf(html);
      expect(css.length, url).toBeGreaterThan(0);
      const cssBytes = css.reduce((sum, href) => sum + gzipped(fs.readFileSync(path.join("build/client", href))), 0);
      const total = gzipped(html) + cssBytes;
      expect(total, `${url}: ${gzipped(html)} B of HTML + ${cssBytes} B of CSS, gzipped`).toBeLessThan(15_000);
    }
  });

  it("signed-in pages still load their scripts", async () => {
    const account = await createAccount(t.app.db, { name: `Deli ${Math.random().toString(36).slice(2, 8)}` });
    const owner = t.app.client();
    await owner.login(account.email, account.password);
    const html = await (await owner.get("/")).text();
    expect(html).toContain("modulepreload");
    expect(html).toMatch(/<script\b/);
  });
});
