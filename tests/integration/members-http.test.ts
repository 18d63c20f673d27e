// Community pages over HTTP: /mycommunity, /memberinfo (?id= and /:id), /invitemember, /memberattributes,
// /myaccount and the public /myinfo/{ref}: happy paths (redirect + toast), errors re-rendered with the
// values kept and never a 500, and tenancy (another business's ids answer 404).
import { describe, expect, it } from "vitest";
import { createAccount, ukMobile } from "../support/factories";
import { pageText, useTestApp } from "../support/server";
import { createGroup } from "~/domain/groups/groups.server";

describe("community pages", () => {
  const t = useTestApp();

  async function signedIn() {
    const account = await createAccount(t.app.db, { name: `Café ${Math.random().toString(36).slice(2, 8)}` });
    const client = t.app.client();
    await client.login(account.email, account.password);
    return { ...account, client };
  }

  async function memberByPhone(businessId: number, phone: string) {
    return t.app.db.selectFrom("members").selectAll().where("business_id", "=", businessId).where("phone", "=", phone).executeTakeFirst();
  }

  it("invites a member: PENDING, the opt-in text queued, then shown on the list and member info", async () => {
    const { businessId, client } = await signedIn();
    const phone = ukMobile();
    const res = await client.post("/invitemember", { phone: `0${phone.slice(3)}`, firstName: "Ann", fullName: "Ann Example" });
    expect(res.status).toBe(302);
    const member = await memberByPhone(businessId, phone);
    expect(member?.status).toBe("PENDING");
    expect(res.headers.get("location")).toBe(`/memberinfo?id=${member!.id}`);
    const out = await t.app.db.selectFrom("outbound").select("body").where("to_phone", "=", phone).execute();
    expect(out).toHaveLength(1);
    expect(out[0].body).toMatch(/reply YES to join/);

    const info = pageText(await (await client.get(`/memberinfo?id=${member!.id}`)).text());
    expect(info).toContain("Invitation sent");
    expect(info).toContain("Ann Example");
    expect(info).toContain(`/myinfo/${member!.unique_ref}`);
    const viaPath = await client.get(`/memberinfo/${member!.id}`);
    expect(viaPath.status).toBe(200);

    const list = pageText(await (await client.get("/mycommunity?tab=invited")).text());
    expect(list).toContain("Ann Example");
    expect(list).toMatch(/Invited\s*1/);
    const search = pageText(await (await client.get("/mycommunity?q=nobody-like-this")).text());
    expect(search).toContain("No members match");

    const again = await client.post("/invitemember", { phone });
    expect(again.status).toBe(409);
    expect(pageText(await again.text())).toContain("An invitation has already been sent to this person.");
  });

  it.each([
    ["empty", { phone: "" }, "Mobile number is required"],
    ["letters", { phone: "call me" }, "Enter a UK mobile number"],
    ["a landline", { phone: "01632 960000" }, "This is not a UK mobile number."],
    ["markup in a name", { phone: "07400 190001", firstName: "<script>x</script>" }, "This can only use letters, numbers, spaces and everyday punctuation. Remove symbols such as < > { } # or @."],
    ["a name over 40 characters", { phone: "07400 190002", firstName: "a".repeat(41) }, "must be 40 characters or fewer"],
    ["control characters", { phone: "07400 190003", fullName: "a\u0001b" }, "contains characters that cannot be used"],
    ["a huge note", { phone: "07400 190004", note: "x".repeat(200_000) }, "must be 5,000 characters or fewer"],
  ])("answers %s on /invitemember with a translated error, nothing saved", async (_why, fields, message) => {
    const { businessId, client } = await signedIn();
    const res = await client.post("/invitemember", fields);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(pageText(await res.text())).toContain(message);
    const count = await t.app.db.selectFrom("members").select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("edits a member (errors keep values), deletes after confirmation, and keeps other businesses out", async () => {
    const a = await signedIn();
    const phone = ukMobile();
    await a.client.post("/invitemember", { phone });
    const m = (await memberByPhone(a.businessId, phone))!;
    const bad = await a.client.post(`/memberinfo?id=${m.id}`, { phone, firstName: "Bo", birthday: "31/02" });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(pageText(badHtml)).toContain("is not a real date. Enter the day and month as dd/mm");
    expect(badHtml).toContain('value="31/02"');
    const ok = await a.client.post(`/memberinfo?id=${m.id}`, { phone, firstName: "Bo", fullName: "Bo Smith", birthday: "02/03", note: "VIP" });
    expect(ok.status).toBe(302);
    expect((await memberByPhone(a.businessId, phone))).toMatchObject({ first_name: "Bo", birthday: "03-02", note: "VIP" });

    // another business: 404 on every route taking the id
    const b = await signedIn();
    expect((await b.client.get(`/memberinfo?id=${m.id}`)).status).toBe(404);
    expect((await b.client.get(`/memberinfo/${m.id}`)).status).toBe(404);
    expect((await b.client.post(`/memberinfo?id=${m.id}`, { phone, firstName: "Hacked" })).status).toBe(404);
    expect((await b.client.post(`/memberinfo?id=${m.id}`, { intent: "delete" })).status).toBe(404);
    expect((await a.client.get(`/memberinfo?id=abc`)).status).toBe(404);
    expect((await memberByPhone(a.businessId, phone))?.first_name).toBe("Bo");

    const confirm = await a.client.get(`/memberinfo?id=${m.id}&delete=1`);
    expect(pageText(await confirm.text())).toContain("Their consent history is kept");
    const del = await a.client.post(`/memberinfo?id=${m.id}`, { intent: "delete" });
    expect(del.status).toBe(302);
    expect(del.headers.get("location")).toBe("/mycommunity");
    expect((await memberByPhone(a.businessId, phone))?.status).toBe("DELETED");
    expect((await a.client.get(`/memberinfo?id=${m.id}`)).status).toBe(404);
    const log = await t.app.db.selectFrom("consent_log").select("id").where("phone", "=", phone).execute();
    expect(log.length).toBe(1);
  });

  it("manages custom attributes: create LIST, refuse duplicates and reserved names, edit, delete; 404 across businesses", async () => {
    const a = await signedIn();
    const created = await a.client.post("/memberattributes", { name: "Favourite drink", type: "LIST", showOnForm: "on", memberCanEdit: "on", newItems: "Tea\nCoffee" });
    expect(created.status).toBe(302);
    const attr = await t.app.db.selectFrom("attributes").selectAll().where("business_id", "=", a.businessId).executeTakeFirstOrThrow();
    expect(attr).toMatchObject({ name: "Favourite drink", type: "LIST", show_on_form: 1, member_can_edit: 1, mandatory: 0 });
    const page = pageText(await (await a.client.get("/memberattributes")).text());
    expect(page).toContain("Tea, Coffee");
    expect(page).toContain("Member last updated");

    const dup = await a.client.post("/memberattributes", { name: "favourite drink", type: "TEXT" });
    expect(dup.status).toBe(400);
    expect(pageText(await dup.text())).toContain("An attribute with this name already exists.");
    const reserved = await a.client.post("/memberattributes", { name: "First name", type: "TEXT" });
    expect(pageText(await reserved.text())).toContain("That name is reserved.");
    const noItems = await a.client.post("/memberattributes", { name: "Size", type: "LIST", newItems: "" });
    expect(pageText(await noItems.text())).toContain("Add at least one list item");
    const same = await a.client.post("/memberattributes", { name: "Size", type: "LIST", newItems: "S\ns" });
    const sameHtml = await same.text();
    expect(pageText(sameHtml)).toContain("List items must differ");
    expect(sameHtml).toContain('value="Size"');
    const badType = await a.client.post("/memberattributes", { name: "Odd", type: "DROP TABLE" });
    expect(badType.status).toBe(400);

    const items = await t.app.db.selectFrom("attribute_list_items").selectAll().where("attribute_id", "=", attr.id).orderBy("position").execute();
    const edited = await a.client.post(`/memberattributes?edit=${attr.id}`, { id: String(attr.id), name: "Drink", type: "LIST", mandatory: "on", [`item_${items[0].id}`]: "Green tea", [`item_${items[1].id}`]: "Coffee", newItems: "Juice" });
    expect(edited.status).toBe(302);
    const labels = (await t.app.db.selectFrom("attribute_list_items").select("label").where("attribute_id", "=", attr.id).orderBy("position").execute()).map((r) => r.label);
    expect(labels).toEqual(["Green tea", "Coffee", "Juice"]);

    const b = await signedIn();
    expect((await b.client.get(`/memberattributes?edit=${attr.id}`)).status).toBe(404);
    expect((await b.client.get(`/memberattributes?delete=${attr.id}`)).status).toBe(404);
    expect((await b.client.post("/memberattributes", { id: String(attr.id), name: "Mine now", type: "LIST", newItems: "x" })).status).toBe(404);
    expect((await b.client.post("/memberattributes", { intent: "delete", id: String(attr.id) })).status).toBe(404);

    const del = await a.client.post("/memberattributes", { intent: "delete", id: String(attr.id) });
    expect(del.status).toBe(302);
    expect(await t.app.db.selectFrom("attributes").select("id").where("id", "=", attr.id).executeTakeFirst()).toBeUndefined();
  });

  it("removing a list item or an attribute used by a smart group names the group, asks, then removes it", async () => {
    const a = await signedIn();
    await a.client.post("/memberattributes", { name: "Drink", type: "LIST", newItems: "Tea\nCoffee" });
    const attr = await t.app.db.selectFrom("attributes").selectAll().where("business_id", "=", a.businessId).executeTakeFirstOrThrow();
    const [tea, coffee] = await t.app.db.selectFrom("attribute_list_items").selectAll().where("attribute_id", "=", attr.id).orderBy("position").execute();
    const byItem = (id: number) => ({ conditions: [{ field: `attr:${attr.id}`, op: "is", value: String(id) }] });
    const coffeeGroup = await createGroup(t.app.db, a.businessId, { name: "Coffee fans", type: "SMART", filter: byItem(coffee.id) }, new Date());
    const teaGroup = await createGroup(t.app.db, a.businessId, { name: "Tea fans", type: "SMART", filter: byItem(tea.id) }, new Date());
    const groupIds = async () => (await t.app.db.selectFrom("groups").select("id").where("business_id", "=", a.businessId).orderBy("id").execute()).map((g) => g.id);

    // clearing Coffee: a 409 naming the group, nothing changed; the confirmed post removes both
    const edit = { id: String(attr.id), name: "Drink", type: "LIST", [`item_${tea.id}`]: "Tea", [`item_${coffee.id}`]: "" };
    const ask = await a.client.post(`/memberattributes?edit=${attr.id}`, edit);
    expect(ask.status).toBe(409);
    const askHtml = await ask.text();
    expect(pageText(askHtml)).toContain("Coffee fans");
    expect(askHtml).toContain('name="confirmGroups"');
    expect(await groupIds()).toEqual([coffeeGroup, teaGroup]);
    const confirmed = await a.client.post(`/memberattributes?edit=${attr.id}`, { ...edit, confirmGroups: "1" });
    expect(confirmed.status).toBe(302);
    expect(await groupIds()).toEqual([teaGroup]);
    expect((await t.app.db.selectFrom("attribute_list_items").select("label").where("attribute_id", "=", attr.id).execute()).map((r) => r.label)).toEqual(["Tea"]);

    // deleting the attribute: the confirmation page names Tea fans; a post without the confirmation asks again
    const page = pageText(await (await a.client.get(`/memberattributes?delete=${attr.id}`)).text());
    expect(page).toContain("Deleting this attribute also deletes the smart groups that use it: Tea fans.");
    const unconfirmed = await a.client.post(`/memberattributes?delete=${attr.id}`, { intent: "delete", id: String(attr.id) });
    expect(unconfirmed.status).toBe(409);
    expect(await groupIds()).toEqual([teaGroup]);
    const del = await a.client.post(`/memberattributes?delete=${attr.id}`, { intent: "delete", id: String(attr.id), confirmGroups: "1" });
    expect(del.status).toBe(302);
    expect(await groupIds()).toEqual([]);
    expect(await t.app.db.selectFrom("attributes").select("id").where("id", "=", attr.id).executeTakeFirst()).toBeUndefined();
  });

  it("the member form: public, join, edit, unsubscribe; an unknown reference is the invalid page (404)", async () => {
    const a = await signedIn();
    await a.client.post("/memberattributes", { name: "Club", type: "TEXT", showOnForm: "on", memberCanEdit: "on" });
    const phone = ukMobile();
    await a.client.post("/invitemember", { phone });
    const m = (await memberByPhone(a.businessId, phone))!;
    const club = await t.app.db.selectFrom("attributes").select("id").where("business_id", "=", a.businessId).executeTakeFirstOrThrow();

    const visitor = t.app.client();
    const page = await visitor.get(`/myinfo/${m.unique_ref}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    const text = pageText(await page.text());
    expect(text).toContain("Confirm you want to join");
    expect(text).toContain("Club");

    expect((await visitor.post(`/myinfo/${m.unique_ref}`, { intent: "join" })).status).toBe(302);
    expect((await memberByPhone(a.businessId, phone))?.status).toBe("SUBSCRIBED");

    const bad = await visitor.post(`/myinfo/${m.unique_ref}`, { firstName: "<b>", [`attr_${club.id}`]: "Road" });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(pageText(badHtml)).toContain("This can only use letters, numbers, spaces and everyday punctuation. Remove symbols such as < > { } # or @.");
    expect(badHtml).toContain('value="Road"');
    const saved = await visitor.post(`/myinfo/${m.unique_ref}`, { firstName: "Kim", [`attr_${club.id}`]: "Road" });
    expect(saved.status).toBe(302);
    expect((await memberByPhone(a.businessId, phone))?.first_name).toBe("Kim");

    expect((await visitor.post(`/myinfo/${m.unique_ref}`, { intent: "unsubscribe" })).status).toBe(302);
    expect((await memberByPhone(a.businessId, phone))?.status).toBe("OPTED_OUT");
    const log = await t.app.db.selectFrom("consent_log").select(["action", "channel"]).where("member_id", "=", m.id).orderBy("id").execute();
    expect(log.map((l) => `${l.action}/${l.channel}`)).toEqual(["OPT_IN_REQUESTED/INVITE", "OPTED_IN/WEB", "OPTED_OUT/WEB"]);

    const unknown = await visitor.get("/myinfo/abcdefghijklmnopqrstuv");
    expect(unknown.status).toBe(404);
    expect(pageText(await unknown.text())).toContain("This member link is not valid");
    expect((await visitor.post("/myinfo/abcdefghijklmnopqrstuv", { intent: "unsubscribe" })).status).toBe(404);
  });

  it("links: Members to import and export, My account to groups and join-us; translated, and each target answers", async () => {
    const a = await signedIn();
    // The text of the first <a> whose href is exactly `href` in the page's own content (from its header
    // on, so not the top navigation, which has links of its own), or null.
    const linkText = (page: string, href: string) => {
      const at = page.indexOf('class="page-header"');
      expect(at).toBeGreaterThan(-1);
      const html = page.slice(at);
      const m = new RegExp(`<a\\b[^>]*\\bhref="${href.replace(/[/.]/g, "\\$&")}"[^>]*>([\\s\\S]*?)</a>`).exec(html);
      return m ? pageText(m[1]).trim() : null;
    };
    const community = await (await a.client.get("/mycommunity")).text();
    expect(linkText(community, "/mycommunity/import")).toBe("Import members");
    expect(linkText(community, "/mycommunity/export")).toBe("Export members (CSV)");
    const account = await (await a.client.get("/myaccount")).text();
    expect(linkText(account, "/groups")).toBe("Groups");
    expect(linkText(account, "/joinus")).toBe("Help people join: keyword, QR code and poster");
    const communityFr = await (await a.client.get("/mycommunity?lng=fr")).text();
    expect(linkText(communityFr, "/mycommunity/import")).toBe("Importer des membres");
    expect(linkText(communityFr, "/mycommunity/export")).toBe("Exporter les membres (CSV)");
    const accountFr = await (await a.client.get("/myaccount?lng=fr")).text();
    expect(linkText(accountFr, "/groups")).toBe("Groupes");
    expect(linkText(accountFr, "/joinus")).toBe("Aider les gens à s’inscrire : mot-clé, QR code et affiche");
    for (const path of ["/mycommunity/import", "/groups", "/joinus"]) expect((await a.client.get(path)).status, path).toBe(200);
    // Signed-in pages offer the language choice too, keeping the page's query string; the choice sticks.
    const listed = await (await a.client.get("/mycommunity?tab=invited")).text();
    const footer = listed.slice(listed.indexOf('class="app-footer"'));
    expect(footer).toContain('href="/mycommunity?tab=invited&amp;lng=fr"');
    expect(footer).toContain('href="/mycommunity?tab=invited&amp;lng=en-GB"');
    expect(linkText(await (await a.client.get("/mycommunity")).text(), "/mycommunity/import")).toBe("Importer des membres");
    await a.client.get("/mycommunity?lng=en-GB");
    const csv = await a.client.get("/mycommunity/export");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
  });

  it("My account: business details and the default texts (empty = standard), with bad input refused", async () => {
    const a = await signedIn();
    const page = pageText(await (await a.client.get("/myaccount")).text());
    expect(page).toContain("Join keyword");
    expect(page).toContain("reply YES to join our text messages");
    // An opt-in text that does not name the business is refused, saying why.
    const unnamed = await a.client.post("/myaccount", { optIn: "Hello! Reply YES to join.", optOut: "" });
    expect(unnamed.status).toBe(400);
    expect(pageText(await unnamed.text())).toContain("Name your business");
    const saved = await a.client.post("/myaccount", { optIn: "{{businessName}}: hello! Reply YES to join, STOP to opt out.", optOut: "" });
    expect(saved.status).toBe(302);
    const biz = await t.app.db.selectFrom("businesses").select(["name", "opt_in_message", "opt_out_message"]).where("id", "=", a.businessId).executeTakeFirstOrThrow();
    expect(biz).toMatchObject({ opt_in_message: "{{businessName}}: hello! Reply YES to join, STOP to opt out.", opt_out_message: null });
    const tooLong = await a.client.post("/myaccount", { optIn: "x".repeat(5001), optOut: "" });
    expect(tooLong.status).toBe(400);
    expect(pageText(await tooLong.text())).toContain("must be 5,000 characters or fewer");
    const phone = ukMobile();
    await a.client.post("/invitemember", { phone });
    const out = await t.app.db.selectFrom("outbound").select("body").where("to_phone", "=", phone).executeTakeFirstOrThrow();
    expect(out.body).toBe(`${biz.name}: hello! Reply YES to join, STOP to opt out.`);
  });
});
