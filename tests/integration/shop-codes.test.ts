// The shop integration on both databases: connecting (the token sealed, never shown; BR038 with the reason for
// each refusal, nothing stored), a group message with {{shopify.code}} that waits while its codes are made in
// calls of at most 250 against the local fake of Shopify's GraphQL Admin API (600 members → 3 calls), then goes
// out with each member's own code; an edit keeps each member's code; no code given twice even when two sends
// race; refusals (no shop, no discount, a shop that refuses) and retries with backoff; another business never
// sees a shop or its codes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { appError } from "../support/errors";
import { createAccount } from "../support/factories";
import { FAKE_DISCOUNT, FAKE_SHOP, FAKE_TOKEN, startFakeShopify, type FakeShopify } from "../support/fake-shopify";
import { Clock, middayToday, pipelineDeps, seedMembers } from "../support/pipeline";
import { editGroupMessage, saveDraftSchedule, saveDraftText, sendDraft, sendDraftOrWait, sendWaitingDraft } from "~/domain/group-messages/group-messages.server";
import { createMessage } from "~/domain/messaging/outbound.server";
import { codeRequestForDraft, listCodes, MAX_ATTEMPTS, recentCodeRequests, requestCodes, runShopCodeRequests } from "~/domain/shop/codes.server";
import { chooseDiscount, connectShop, disconnectShop, getShopIntegration, integrationMergeTags, shopCredentials } from "~/domain/shop/integration.server";
import { SimulatorShopProvider } from "~/providers/shop/simulator.server";
import { ShopifyShopProvider } from "~/providers/shop/shopify.server";
import type { ShopProvider } from "~/providers/shop/types";
import type { Database } from "#db/index";
import { createCampaign, getCampaign } from "~/domain/campaigns/campaigns.server";
import { fireNow, runDueFires } from "~/domain/campaigns/engine.server";
import { campaignInput } from "~/domain/campaigns/model";

const SECRET = "test-secret-test-secret-test-secret-123";
let fake: FakeShopify;

beforeAll(async () => {
  fake = await startFakeShopify();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.calls.length = 0;
  fake.pollsUntilDone = 1;
  fake.bucket = { maximumAvailable: 1000, restoreRate: 50, currentlyAvailable: 1000 };
});

function shopify(): ShopifyShopProvider {
  return new ShopifyShopProvider({
    apiBase: fake.url,
    pollIntervalMs: 10,
    sleep: (ms) => {
      fake.advance(ms);
      return Promise.resolve();
    },
  });
}

describe.each(DIALECTS)("shop integration (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });

  const round = (db: Database, shop: ShopProvider) =>
    runShopCodeRequests({
      db,
      now: clock.now,
      shop,
      secret: SECRET,
      onReady: async (r) => {
        if (r.draftId !== null) await sendWaitingDraft(pipelineDeps(db, clock, 0), r.businessId, r.draftId);
      },
    });

  async function connected(shop: ShopProvider = shopify(), domain = FAKE_SHOP, token = FAKE_TOKEN, discount = FAKE_DISCOUNT) {
    const a = await createAccount(t.db, { messageAllowance: 100_000 });
    await connectShop(t.db, shop, { businessId: a.businessId, userId: a.id, shopDomain: domain, accessToken: token, secret: SECRET }, clock.now());
    await chooseDiscount(t.db, shop, { businessId: a.businessId, discountId: discount, secret: SECRET }, clock.now());
    return a;
  }

  async function draft(a: { businessId: number; id: number }, body: string) {
    const d = await saveDraftText(t.db, { businessId: a.businessId, userId: a.id, body }, clock.now());
    await saveDraftSchedule(t.db, { businessId: a.businessId, draftId: d, groupId: -1, sendMode: "NOW", sendAt: null }, clock.now());
    return d;
  }

  it("connects a shop with its token sealed and never shown, and refuses with BR038 and the reason", async () => {
    const sim = new SimulatorShopProvider(t.db, clock.now);
    const a = await createAccount(t.db);
    const input = { businessId: a.businessId, userId: a.id, secret: SECRET };
    const reasons: [string, string, string][] = [
      ["not a domain!", "shpat_ok", "badDomain"],
      ["my-shop.myshopify.com", "wrong-token", "auth"],
      ["my-shop.myshopify.com", "shpat_noscopes", "scopes"],
      ["frozen.myshopify.com", "shpat_ok", "payment"],
      ["unreachable.myshopify.com", "shpat_ok", "network"],
    ];
    for (const [shopDomain, accessToken, context] of reasons) {
      const e = await appError(connectShop(t.db, sim, { ...input, shopDomain, accessToken }, clock.now()));
      expect([e.code, e.data?.context]).toEqual(["BR038", context]);
    }
    expect(await getShopIntegration(t.db, a.businessId)).toBeNull();

    const token = "shpat_secret0123456789abcd";
    const shop = await connectShop(t.db, sim, { ...input, shopDomain: "https://My-Shop.myshopify.com/admin", accessToken: token }, clock.now());
    expect(shop).toMatchObject({ provider: "simulator", shopDomain: "my-shop.myshopify.com", shopName: "My Shop", tokenLast4: "abcd", discountId: null });
    const row = await t.db.selectFrom("shop_integrations").selectAll().where("business_id", "=", a.businessId).executeTakeFirstOrThrow();
    expect(row.token_enc).not.toContain(token);
    expect(JSON.stringify(shop)).not.toContain(token);
    expect((await shopCredentials(t.db, a.businessId, SECRET))?.accessToken).toBe(token);
    expect(await shopCredentials(t.db, a.businessId, "another-secret-another-secret-000")).toBeNull();
    // The tag is offered once a discount is chosen; an unknown discount is refused.
    expect(await integrationMergeTags(t.db, a.businessId)).toEqual([]);
    expect((await appError(chooseDiscount(t.db, sim, { businessId: a.businessId, discountId: "gid://nope", secret: SECRET }, clock.now()))).data?.context).toBe("notFound");
    await chooseDiscount(t.db, sim, { businessId: a.businessId, discountId: "gid://shopify/DiscountCodeNode/1002", secret: SECRET }, clock.now());
    expect(await integrationMergeTags(t.db, a.businessId)).toEqual(["shopify.code"]);
    expect((await getShopIntegration(t.db, a.businessId))?.discountTitle).toBe("Free delivery");
  });

  it("makes codes for 600 members in 3 calls of at most 250, polled until done, then sends each member their own", async () => {
    const a = await connected();
    const members = await seedMembers(t.db, a.businessId, 600);
    const d = await draft(a, "Hi {{firstName}}, your code: {{shopify.code}}");
    const deps = pipelineDeps(t.db, clock, 0);
    // Without codes the plain send is refused, and nothing is written.
    expect((await appError(sendDraft(deps, { businessId: a.businessId, userId: a.id, draftId: d }))).data?.context).toBe("codesShort");
    expect(await t.db.selectFrom("messages").select("id").where("business_id", "=", a.businessId).execute()).toEqual([]);
    const waiting = await sendDraftOrWait(deps, { businessId: a.businessId, userId: a.id, draftId: d });
    expect(waiting.waiting).toBe(true);
    expect(await codeRequestForDraft(t.db, a.businessId, d)).toMatchObject({ status: "PENDING", needed: 600, made: 0 });

    fake.pollsUntilDone = 2;
    expect(await round(t.db, shopify())).toBe(1);
    const adds = fake.calls.filter((c) => c.operation === "bulkAdd" && !c.throttled);
    expect(adds.map((c) => c.codes)).toEqual([250, 250, 100]);
    expect(fake.calls.filter((c) => c.operation === "bulkCreation")).toHaveLength(9); // 3 polls each
    expect(await codeRequestForDraft(t.db, a.businessId, d)).toMatchObject({ status: "READY", made: 600 });

    const sent = await t.db.selectFrom("group_message_drafts").select("message_id").where("id", "=", d).executeTakeFirstOrThrow();
    expect(sent.message_id).not.toBeNull();
    const rows = await t.db.selectFrom("outbound").select(["member_id", "body"]).where("message_id", "=", Number(sent.message_id)).execute();
    expect(rows).toHaveLength(600);
    const codes = await t.db.selectFrom("shop_codes").select(["member_id", "code"]).where("message_id", "=", Number(sent.message_id)).execute();
    const codeOf = new Map(codes.map((c) => [Number(c.member_id), c.code]));
    expect(new Set(codes.map((c) => c.code)).size).toBe(600);
    for (const r of rows) {
      const code = codeOf.get(Number(r.member_id));
      expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
      expect(r.body).toContain(`your code: ${code}`);
      expect(fake.codes.has(code!)).toBe(true);
    }
    expect(new Set(members.map((m) => m.id))).toEqual(new Set(rows.map((r) => Number(r.member_id))));
    // Nothing more to do.
    expect(await round(t.db, shopify())).toBe(0);
    expect((await listCodes(t.db, a.businessId, 1)).given).toBe(600);
  });

  it("waits out the shop's rate limit while making codes", async () => {
    const a = await connected();
    await seedMembers(t.db, a.businessId, 3);
    fake.bucket = { maximumAvailable: 15, restoreRate: 5, currentlyAvailable: 0 };
    const d = await draft(a, "Code {{shopify.code}}");
    await sendDraftOrWait(pipelineDeps(t.db, clock, 0), { businessId: a.businessId, userId: a.id, draftId: d });
    await round(t.db, shopify());
    expect(fake.calls.some((c) => c.throttled)).toBe(true);
    expect(await codeRequestForDraft(t.db, a.businessId, d)).toMatchObject({ status: "READY", made: 3 });
  });

  it("keeps each member's code when a pending message is edited", async () => {
    const a = await connected(new SimulatorShopProvider(t.db, clock.now), "edit-shop.myshopify.com", "shpat_ok", "gid://shopify/DiscountCodeNode/1001");
    await seedMembers(t.db, a.businessId, 4);
    await requestCodes(t.db, { businessId: a.businessId, needed: 4, draftId: null }, clock.now());
    await round(t.db, new SimulatorShopProvider(t.db, clock.now));
    const deps = pipelineDeps(t.db, clock, 60);
    const m = await createMessage(deps, { businessId: a.businessId, kind: "GROUP", body: "A {{shopify.code}}", groupId: -1 });
    const before = await t.db.selectFrom("shop_codes").select(["member_id", "code"]).where("message_id", "=", m.messageId).orderBy("member_id").execute();
    await editGroupMessage(deps, { businessId: a.businessId, messageId: m.messageId, body: "B {{shopify.code}}", sendMode: "NOW", sendAt: null });
    const after = await t.db.selectFrom("shop_codes").select(["member_id", "code"]).where("message_id", "=", m.messageId).orderBy("member_id").execute();
    expect(after).toEqual(before);
    const bodies = await t.db.selectFrom("outbound").select(["member_id", "body"]).where("message_id", "=", m.messageId).execute();
    for (const b of bodies) expect(b.body).toContain(`B ${before.find((x) => x.member_id === b.member_id)?.code}`);
  });

  it("never gives a code twice, even when two sends race for the same codes", async () => {
    const sim = new SimulatorShopProvider(t.db, clock.now);
    const a = await connected(sim, "race-shop.myshopify.com", "shpat_ok", "gid://shopify/DiscountCodeNode/1001");
    await seedMembers(t.db, a.businessId, 5);
    await requestCodes(t.db, { businessId: a.businessId, needed: 10, draftId: null }, clock.now());
    // Two workers racing for the same request make the codes once.
    const taken = await Promise.all([round(t.db, sim), round(t.db, sim)]);
    expect(taken.sort()).toEqual([0, 1]);
    expect((await listCodes(t.db, a.businessId, 1)).total).toBe(10);
    const deps = pipelineDeps(t.db, clock, 0);
    const send = () => createMessage(deps, { businessId: a.businessId, kind: "GROUP", body: "Yours: {{shopify.code}}", groupId: -1 });
    const both = await Promise.all([send(), send()]);
    const given = await t.db.selectFrom("shop_codes").select(["code", "message_id", "member_id"]).where("business_id", "=", a.businessId).where("message_id", "is not", null).execute();
    expect(given).toHaveLength(10);
    expect(new Set(given.map((g) => g.code)).size).toBe(10);
    expect(new Set(given.map((g) => Number(g.message_id)))).toEqual(new Set(both.map((b) => b.messageId)));
    // No codes left: a third send is refused with nothing written.
    const e = await appError(send());
    expect([e.code, e.data?.context]).toEqual(["BR038", "codesShort"]);
    expect(await t.db.selectFrom("messages").select("id").where("business_id", "=", a.businessId).execute()).toHaveLength(2);

    // Seven codes for two sends of five: one goes, the other is refused; still no code given twice.
    await requestCodes(t.db, { businessId: a.businessId, needed: 7, draftId: null }, clock.now());
    await round(t.db, sim);
    const outcomes = await Promise.allSettled([send(), send()]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const all = await t.db.selectFrom("shop_codes").select(["code"]).where("business_id", "=", a.businessId).where("message_id", "is not", null).execute();
    expect(all).toHaveLength(15);
    expect(new Set(all.map((g) => g.code)).size).toBe(15);
  });

  it("refuses a send when no shop or discount is set, retries shop failures with backoff and fails for good on a refusal", async () => {
    const deps = pipelineDeps(t.db, clock, 0);
    const lone = await createAccount(t.db, { messageAllowance: 100 });
    await seedMembers(t.db, lone.businessId, 2);
    const d0 = await draft(lone, "Code {{shopify.code}}");
    expect((await appError(sendDraftOrWait(deps, { businessId: lone.businessId, userId: lone.id, draftId: d0 }))).data?.context).toBe("noShop");
    await connectShop(t.db, new SimulatorShopProvider(t.db, clock.now), { businessId: lone.businessId, userId: lone.id, shopDomain: "nodisc.myshopify.com", accessToken: "shpat_ok", secret: SECRET }, clock.now());
    expect((await appError(sendDraftOrWait(deps, { businessId: lone.businessId, userId: lone.id, draftId: d0 }))).data?.context).toBe("noDiscount");

    // A shop that is down: retried later with backoff, up to MAX_ATTEMPTS, then failed with the reason.
    const a = await connected();
    await seedMembers(t.db, a.businessId, 2);
    const d = await draft(a, "Code {{shopify.code}}");
    await sendDraftOrWait(deps, { businessId: a.businessId, userId: a.id, draftId: d });
    fake.failNext(503, MAX_ATTEMPTS);
    expect(await round(t.db, shopify())).toBe(1);
    const r1 = await t.db.selectFrom("shop_code_requests").selectAll().where("draft_id", "=", d).executeTakeFirstOrThrow();
    expect(r1).toMatchObject({ status: "PENDING", error_reason: "network" });
    expect(Number(r1.attempts)).toBe(1);
    expect(r1.next_attempt_at > clock.now().toISOString()).toBe(true);
    expect(await round(t.db, shopify())).toBe(0); // not due yet
    for (let i = 1; i < MAX_ATTEMPTS; i++) {
      clock.advance(16 * 60_000);
      await round(t.db, shopify());
    }
    expect(await codeRequestForDraft(t.db, a.businessId, d)).toMatchObject({ status: "FAILED", errorReason: "network", attempts: MAX_ATTEMPTS });
    expect(await t.db.selectFrom("messages").select("id").where("business_id", "=", a.businessId).execute()).toEqual([]);

    // A token the shop no longer accepts: failed at once, nothing sent; sending again asks again.
    const b = await connected(new SimulatorShopProvider(t.db, clock.now), FAKE_SHOP, "shpat_revoked", "gid://shopify/DiscountCodeNode/1001");
    await t.db.updateTable("shop_integrations").set({ discount_id: FAKE_DISCOUNT }).where("business_id", "=", b.businessId).execute();
    await seedMembers(t.db, b.businessId, 2);
    const db2 = await draft(b, "Code {{shopify.code}}");
    await sendDraftOrWait(deps, { businessId: b.businessId, userId: b.id, draftId: db2 });
    await round(t.db, shopify());
    expect(await codeRequestForDraft(t.db, b.businessId, db2)).toMatchObject({ status: "FAILED", errorReason: "auth", attempts: 1 });
    expect(await t.db.selectFrom("messages").select("id").where("business_id", "=", b.businessId).execute()).toEqual([]);
    await sendDraftOrWait(deps, { businessId: b.businessId, userId: b.id, draftId: db2 });
    expect(await codeRequestForDraft(t.db, b.businessId, db2)).toMatchObject({ status: "PENDING", attempts: 0, errorReason: null });
  });

  it("puts a campaign's issue off until its codes are made, then sends each member their own; fails it when the shop cannot", async () => {
    const sim = new SimulatorShopProvider(t.db, clock.now);
    const a = await connected(sim, "camp-shop.myshopify.com", "shpat_ok", "gid://shopify/DiscountCodeNode/1003");
    await seedMembers(t.db, a.businessId, 3);
    const deps = pipelineDeps(t.db, clock, 0);
    const rounds = (shop: ShopProvider) =>
      runShopCodeRequests({ db: t.db, now: clock.now, shop, secret: SECRET, onReady: async (r) => (r.fireId !== null ? fireNow(t.db, r.fireId, clock.now()) : undefined) });
    const poll = await createCampaign(deps, {
      businessId: a.businessId,
      userId: a.id,
      input: campaignInput.parse({ type: "POLL", name: "Deal", messageText: "Tea or coffee? {{shopify.code}} gets you £5 off", contactGroupId: -1, closeDate: new Date(clock.t + 7_200_000).toISOString(), responseOptions: ["Tea", "Coffee"] }),
    });
    await runDueFires(deps);
    expect((await getCampaign(t.db, a.businessId, poll.id))!.status).not.toBe("LIVE");
    const req = await t.db.selectFrom("shop_code_requests").selectAll().where("business_id", "=", a.businessId).executeTakeFirstOrThrow();
    expect(req).toMatchObject({ status: "PENDING", needed: 3 });
    expect(req.fire_id).not.toBeNull();
    // Asking again while it waits adds no second request.
    await runDueFires({ ...deps, now: () => new Date(clock.t + 61_000) });
    expect(await t.db.selectFrom("shop_code_requests").select("id").where("business_id", "=", a.businessId).execute()).toHaveLength(1);
    await rounds(sim);
    await runDueFires(deps);
    expect((await getCampaign(t.db, a.businessId, poll.id))!.status).toBe("LIVE");
    const bodies = await t.db.selectFrom("outbound").innerJoin("messages", "messages.id", "outbound.message_id").select("outbound.body").where("messages.campaign_id", "=", poll.id).execute();
    const codes = bodies.map((b) => /\? ([A-Z2-9]{5}-[A-Z2-9]{5}) gets/.exec(b.body)?.[1]);
    expect(new Set(codes).size).toBe(3);
    expect(codes.every(Boolean)).toBe(true);

    // A shop that refuses: the request fails, and so does the campaign, with nothing sent.
    const b = await connected(sim, "camp-shop-2.myshopify.com", "shpat_ok", "gid://shopify/DiscountCodeNode/1003");
    await seedMembers(t.db, b.businessId, 2);
    const other = await createCampaign(deps, {
      businessId: b.businessId,
      userId: b.id,
      input: campaignInput.parse({ type: "POLL", name: "Deal", messageText: "Yes or no? {{shopify.code}}", contactGroupId: -1, closeDate: new Date(clock.t + 7_200_000).toISOString(), responseOptions: ["Yes", "No"] }),
    });
    await runDueFires(deps);
    await t.db.updateTable("shop_integrations").set({ shop_domain: "frozen.myshopify.com" }).where("business_id", "=", b.businessId).execute();
    await rounds(sim);
    clock.advance(61_000);
    await runDueFires(deps);
    expect(await getCampaign(t.db, b.businessId, other.id)).toMatchObject({ status: "FAILED" });
    expect(await t.db.selectFrom("messages").select("id").where("campaign_id", "=", other.id).execute()).toEqual([]);
  });

  it("keeps each business's shop, codes and requests to itself", async () => {
    const sim = new SimulatorShopProvider(t.db, clock.now);
    const a = await connected(sim, "a-shop.myshopify.com", "shpat_ok", "gid://shopify/DiscountCodeNode/1001");
    await requestCodes(t.db, { businessId: a.businessId, needed: 5, draftId: null }, clock.now());
    await round(t.db, sim);
    const b = await createAccount(t.db, { messageAllowance: 100 });
    await seedMembers(t.db, b.businessId, 2);
    expect(await getShopIntegration(t.db, b.businessId)).toBeNull();
    expect(await listCodes(t.db, b.businessId, 1)).toMatchObject({ total: 0, rows: [] });
    expect(await recentCodeRequests(t.db, b.businessId)).toEqual([]);
    expect(await shopCredentials(t.db, b.businessId, SECRET)).toBeNull();
    // B cannot draw on A's codes.
    const e = await appError(createMessage(pipelineDeps(t.db, clock, 0), { businessId: b.businessId, kind: "GROUP", body: "{{shopify.code}}", groupId: -1 }));
    expect(e.data?.context).toBe("noShop");
    expect((await listCodes(t.db, a.businessId, 1)).free).toBe(5);
    // Disconnecting drops the unused codes and fails waiting requests.
    await requestCodes(t.db, { businessId: a.businessId, needed: 50, draftId: null }, clock.now());
    await disconnectShop(t.db, a.businessId, clock.now());
    expect((await listCodes(t.db, a.businessId, 1)).total).toBe(0);
    expect((await recentCodeRequests(t.db, a.businessId))[0]).toMatchObject({ status: "FAILED", errorReason: "noShop" });
  });
});
