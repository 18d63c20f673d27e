// The integrations page over HTTP on both databases: Administrator only (a team member gets the FB001 page and
// their post changes nothing), connecting the shop simulator through the form (a refused token answers BR038 with
// the reason and is never echoed back; a connected token shows only its last four characters), choosing a
// discount, the link from My account, the shop simulator's page with a code marked redeemed, and another
// business seeing nothing of it.
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../support/db";
import { createAccount, createTeamUser } from "../support/factories";
import { pageText, useTestApp, type TestApp, type TestClient } from "../support/server";
import { createSession } from "~/domain/accounts/sessions.server";

async function clientFor(app: TestApp, userId: number): Promise<TestClient> {
  const client = app.client();
  const { token } = await createSession(app.db, userId, "WEB", new Date());
  client.cookies.set("tc_session", token);
  return client;
}

describe.each(DIALECTS)("integrations page (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  it("lets only the Administrator connect a shop, with BR038 and the reason on a refusal and the token never shown", async () => {
    const account = await createAccount(t.app.db);
    const teamUser = await createTeamUser(t.app.db, account.businessId);
    const admin = await clientFor(t.app, account.id);
    const member = await clientFor(t.app, teamUser.id);

    const refused = await member.get("/manageintegrations");
    expect(refused.status).toBe(403);
    expect(pageText(await refused.text())).toContain("Only your account administrator can do this");
    await member.get("/myaccount");
    const post = await member.post("/manageintegrations", { intent: "connect", shopDomain: "team.myshopify.com", accessToken: "shpat_team0000" });
    expect(post.status).toBe(403);
    expect(await t.app.db.selectFrom("shop_integrations").selectAll().execute()).toEqual([]);
    expect(await (await member.get("/myaccount")).text()).not.toContain('href="/manageintegrations"');
    expect(await (await admin.get("/myaccount")).text()).toContain('href="/manageintegrations"');

    expect(await (await admin.get("/quickpoll")).text()).not.toContain("{{shopify.code}}");
    const empty = pageText(await (await admin.get("/manageintegrations")).text());
    expect(empty).toContain("Not connected");
    expect(empty).toContain("API keys");

    const bad = await admin.post("/manageintegrations", { intent: "connect", shopDomain: "my-shop.myshopify.com", accessToken: "shpat_invalid" });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(pageText(badHtml)).toContain("Your shop refused the access token");
    expect(badHtml).not.toContain("shpat_invalid");
    const scopes = await admin.post("/manageintegrations?lng=fr", { intent: "connect", shopDomain: "my-shop.myshopify.com", accessToken: "shpat_noscopes" });
    expect(pageText(await scopes.text())).toContain("ne permet pas de gérer les réductions");
    const domain = await admin.post("/manageintegrations?lng=en-GB", { intent: "connect", shopDomain: "https://example.com", accessToken: "shpat_ok" });
    expect(pageText(await domain.text())).toContain("This is not a shop domain");

    const ok = await admin.post("/manageintegrations", { intent: "connect", shopDomain: "corner-shop", accessToken: "shpat_secret00009876" });
    expect(ok.status).toBe(302);
    const page = await (await admin.get("/manageintegrations")).text();
    expect(pageText(page)).toContain("Corner Shop (corner-shop.myshopify.com)");
    expect(pageText(page)).toContain("ending in 9876");
    expect(page).not.toContain("shpat_secret00009876");
    expect(pageText(page)).toContain("Free delivery");

    const chosen = await admin.post("/manageintegrations", { intent: "discount", discountId: "gid://shopify/DiscountCodeNode/1002" });
    expect(chosen.status).toBe(302);
    expect(pageText(await (await admin.get("/manageintegrations")).text())).toContain("{{shopify.code}}");
    // The composer offers the tag now.
    expect(await (await admin.get("/newgroupmessage")).text()).toContain("Discount code");
    expect(await (await admin.get("/quickpoll")).text()).toContain("{{shopify.code}}");

    // Another business sees nothing of it.
    const other = await createAccount(t.app.db);
    const otherPage = pageText(await (await (await clientFor(t.app, other.id)).get("/manageintegrations")).text());
    expect(otherPage).toContain("Not connected");
    expect(otherPage).not.toContain("Corner Shop");

    const off = await admin.post("/manageintegrations", { intent: "disconnect" });
    expect(off.status).toBe(302);
    expect(await t.app.db.selectFrom("shop_integrations").selectAll().where("business_id", "=", account.businessId).execute()).toEqual([]);
  });

  it("shows the shop simulator's codes and marks one redeemed", async () => {
    const at = new Date().toISOString();
    await t.app.db.insertInto("sim_shop_codes").values({ shop_domain: "sim-page.myshopify.com", discount_id: "gid://shopify/DiscountCodeNode/1001", code: "SIMPA-GE234", created_at: at, redeemed_at: null }).execute();
    const client = t.app.client();
    const page = await client.get("/shopsimulator");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(pageText(html)).toContain("SIMPA-GE234");
    const row = await t.app.db.selectFrom("sim_shop_codes").select("id").where("code", "=", "SIMPA-GE234").executeTakeFirstOrThrow();
    const redeemed = await client.post("/shopsimulator", { id: String(row.id) });
    expect(redeemed.status).toBe(302);
    expect((await t.app.db.selectFrom("sim_shop_codes").select("redeemed_at").where("id", "=", row.id).executeTakeFirstOrThrow()).redeemed_at).not.toBeNull();
    expect(pageText(await (await client.get("/shopsimulator")).text())).toContain("Redeemed");
  });
});
