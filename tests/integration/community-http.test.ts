// Join-us, web sign-up, import and export over HTTP: pages render, bad input gives translated errors
// (never a 500), the web join starts the double opt-in (PENDING, opt-in text, consent WEB), and
// another business's import job is 404.
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, ukMobile } from "../support/factories";
import { pageText, useTestApp, type TestClient } from "../support/server";
import { seedMembers } from "../support/pipeline";

async function upload(client: TestClient, content: BlobPart, name = "members.csv") {
  if (!client.cookies.has("tc_csrf")) await client.get("/login");
  const body = new FormData();
  body.set("_csrf", client.cookies.get("tc_csrf") ?? "");
  body.set("file", new File([content], name, { type: "text/csv" }));
  return client.request("/mycommunity/import", { method: "POST", body });
}

describe("join-us, import and export pages", () => {
  const t = useTestApp();
  let account: Awaited<ReturnType<typeof createAccount>>;
  let client: TestClient;
  let slug: string;

  beforeAll(async () => {
    account = await createAccount(t.app.db, { phoneNumber: "+447700900777" });
    client = t.app.client();
    await client.login(account.email, account.password);
    slug = (await t.app.db.selectFrom("businesses").select("referral_code").where("id", "=", account.businessId).executeTakeFirstOrThrow()).referral_code;
  });

  it("shows the keyword, number, an SVG QR code for the text and the web link", async () => {
    const res = await client.get("/joinus");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(pageText(html)).toContain("Text JOIN to 07700 900777");
    expect(html).toContain("<svg");
    expect(html).toContain(`/join/${slug}`);
    expect(html).toContain('href="sms:+447700900777?&amp;body=JOIN"');
  });

  it("web sign-up starts the double opt-in, never says whether the number was a member, and refuses bad numbers", async () => {
    const visitor = t.app.client();
    expect((await visitor.get(`/join/${slug}`)).status).toBe(200);
    expect((await visitor.get("/join/no-such-business")).status).toBe(404);
    for (const phone of ["", "12345", "<script>", "0".repeat(30)]) {
      const bad = await visitor.post(`/join/${slug}`, { phone });
      expect(bad.status).toBe(400);
      expect(pageText(await bad.text())).toMatch(/required|valid|number/i);
    }
    const phone = ukMobile();
    const ok = await visitor.post(`/join/${slug}`, { phone: `0${phone.slice(3)}` });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`/join/${slug}?sent=1`);
    const member = await t.app.db.selectFrom("members").select(["id", "status"]).where("business_id", "=", account.businessId).where("phone", "=", phone).executeTakeFirstOrThrow();
    expect(member.status).toBe("PENDING");
    const consent = await t.app.db.selectFrom("consent_log").select(["action", "channel"]).where("member_id", "=", member.id).execute();
    expect(consent).toEqual([{ action: "OPT_IN_REQUESTED", channel: "WEB" }]);
    const texts = await t.app.db.selectFrom("outbound").select("body").where("member_id", "=", member.id).execute();
    expect(texts).toHaveLength(1);
    expect(texts[0].body).toContain("reply YES");
    // A subscribed member gets the same answer and no text.
    const [sub] = await seedMembers(t.app.db, account.businessId, 1);
    const again = await visitor.post(`/join/${slug}`, { phone: sub.phone });
    expect(again.headers.get("location")).toBe(`/join/${slug}?sent=1`);
    expect(await t.app.db.selectFrom("outbound").select("id").where("member_id", "=", sub.id).execute()).toHaveLength(0);
  });

  it("imports a small CSV: upload, map with preview, consent required, report", async () => {
    const bad = await upload(client, new Uint8Array([0x4d, 0x6f, 0x62, 0x0a, 0xe9, 0xe9]));
    expect(bad.status).toBe(400);
    expect(pageText(await bad.text())).toContain("The file is not saved as UTF-8 text.");
    const empty = await upload(client, "");
    expect(empty.status).toBe(400);
    const res = await upload(client, "Mobile,First name\n07400 160001,Ivy\n07400 160002,=HYPERLINK(\"x\")\nnope,Bad\n");
    expect(res.status).toBe(302);
    const loc = res.headers.get("location")!;
    const map = await client.get(loc);
    const html = await map.text();
    expect(pageText(html)).toContain("Ivy");
    expect(html).toMatch(/<option value="phone" selected="">/);
    const noConsent = await client.post(loc, { column0: "phone", column1: "firstName" });
    expect(noConsent.status).toBe(400);
    expect(pageText(await noConsent.text())).toContain("Confirm that everyone in the file has agreed to get your texts.");
    const done = await client.post(loc, { column0: "phone", column1: "firstName", consent: "yes" });
    expect(done.status).toBe(302);
    const report = pageText(await (await client.get(loc)).text());
    expect(report).toContain("2 members added");
    expect(report).toContain("1 row skipped");
    expect(report).toContain("1 row without a valid UK mobile number");
    const other = await createAccount(t.app.db);
    const otherClient = t.app.client();
    await otherClient.login(other.email, other.password);
    expect((await otherClient.get(loc)).status).toBe(404);
    expect((await otherClient.post(loc, { column0: "phone", consent: "yes" })).status).toBe(404);
  });

  it("sends a file over 10 MB back with a clear error", async () => {
    const big = await upload(client, new Uint8Array(10 * 1024 * 1024 + 100 * 1024));
    expect(big.status).toBe(303);
    expect(big.headers.get("location")).toBe("/mycommunity/import?error=tooBig");
    expect(pageText(await (await client.get("/mycommunity/import?error=tooBig")).text())).toContain("The file is larger than 10 MB.");
  });

  it("exports members as a CSV download", async () => {
    const res = await client.get("/mycommunity/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = await res.text();
    expect(text).toContain("Mobile number,First name");
    expect(text).toContain("07400 160001,Ivy");
    expect(text).toContain('HYPERLINK(""x"")'); // stored without the leading =, so no formula
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});
