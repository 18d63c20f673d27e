import { describe, expect, it } from "vitest";
import { getOnboarding, requestNumber } from "~/domain/accounts/onboarding.server";
import { setRefuseNumberRequests } from "~/domain/simulator/simulator.server";
import { AppError } from "~/lib/errors";
import { SimulatorSmsProvider } from "~/providers/sms/simulator.server";
import type { SmsProvider } from "~/providers/sms/types";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createBusiness } from "../support/factories";
import { pageText, useTestApp } from "../support/server";

const now = new Date("2026-11-21T14:05:00Z");

/** The simulator, counting how many numbers it was asked for. */
function countingSms(db: ConstructorParameters<typeof SimulatorSmsProvider>[0]) {
  const inner = new SimulatorSmsProvider(db, () => now);
  const counter = { calls: 0 };
  const sms: SmsProvider = {
    name: "simulator",
    send: (m) => inner.send(m),
    async provisionNumber(r) {
      counter.calls++;
      // Give a concurrent request time to arrive while this one "talks to the provider".
      await new Promise((resolve) => setTimeout(resolve, 30));
      void r;
      return inner.provisionNumber();
    },
  };
  return { sms, counter };
}

async function codeOf(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
}

describe.each(DIALECTS)("onboarding: requestNumber (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("gives a NEW business a simulator number, completes onboarding and adds the 'number ready' notice", async () => {
    const businessId = await createBusiness(t.db, { onboarding: "NEW", phoneNumber: null });
    const { sms } = countingSms(t.db);
    const result = await requestNumber(t.db, sms, businessId, now);
    expect(result.status).toBe("COMPLETE");
    const phone = result.status === "COMPLETE" ? result.phoneNumber : "";
    expect(phone).toMatch(/^\+447700900\d{3}$/);
    const view = await getOnboarding(t.db, businessId);
    expect(view).toMatchObject({ onboarding: "COMPLETE", phoneNumber: phone, error: null });
    const notices = await t.db.selectFrom("notices").selectAll().where("business_id", "=", businessId).execute();
    expect(notices.map((n) => [n.kind, n.title, n.body])).toEqual([["NUMBER_READY", "feed.info.numberReadyTitle", "feed.info.numberReadyBody"]]);
    expect(await t.db.selectFrom("sim_numbers").select("number").where("number", "=", phone).executeTakeFirst()).toBeDefined();
  });

  it("records NUMBER_FAILED with SU001 when the provider refuses, then succeeds on a retry", async () => {
    const businessId = await createBusiness(t.db, { onboarding: "NEW", phoneNumber: null });
    const { sms } = countingSms(t.db);
    await setRefuseNumberRequests(t.db, true);
    expect(await codeOf(requestNumber(t.db, sms, businessId, now))).toBe("SU001");
    const failed = await getOnboarding(t.db, businessId);
    expect(failed.onboarding).toBe("NUMBER_FAILED");
    expect(failed.phoneNumber).toBeNull();
    expect(failed.error).toBe("SIM_REFUSED");

    await setRefuseNumberRequests(t.db, false);
    const retry = await requestNumber(t.db, sms, businessId, now);
    expect(retry.status).toBe("COMPLETE");
    expect((await getOnboarding(t.db, businessId)).onboarding).toBe("COMPLETE");
  });

  it("buys only one number when the request is submitted twice at once", async () => {
    const businessId = await createBusiness(t.db, { onboarding: "NEW", phoneNumber: null });
    const { sms, counter } = countingSms(t.db);
    const before = (await t.db.selectFrom("sim_numbers").select("number").execute()).length;
    const results = await Promise.allSettled([requestNumber(t.db, sms, businessId, now), requestNumber(t.db, sms, businessId, now)]);
    const completes = results.filter((r) => r.status === "fulfilled" && r.value.status === "COMPLETE");
    expect(completes).toHaveLength(1);
    // The other request either saw the claim in progress (PENDING) or the finished onboarding (BR007).
    const other = results.find((r) => !(r.status === "fulfilled" && r.value.status === "COMPLETE"))!;
    if (other.status === "fulfilled") expect(other.value.status).toBe("PENDING");
    else expect((other.reason as AppError).code).toBe("BR007");
    expect(counter.calls).toBe(1);
    expect((await t.db.selectFrom("sim_numbers").select("number").execute()).length).toBe(before + 1);
    expect(await t.db.selectFrom("notices").select("id").where("business_id", "=", businessId).execute()).toHaveLength(1);
  });

  it("refuses an account that is already onboarded with BR007 and does not ask the provider", async () => {
    const businessId = await createBusiness(t.db, { onboarding: "COMPLETE" });
    const { sms, counter } = countingSms(t.db);
    const numberBefore = (await getOnboarding(t.db, businessId)).phoneNumber;
    expect(await codeOf(requestNumber(t.db, sms, businessId, now))).toBe("BR007");
    expect(counter.calls).toBe(0);
    expect((await getOnboarding(t.db, businessId)).phoneNumber).toBe(numberBefore);
  });
});

describe("onboarding pages", () => {
  const t = useTestApp();

  async function newAccount() {
    const account = await createAccount(t.app.db, { onboarding: "NEW", phoneNumber: null });
    const client = t.app.client();
    await client.login(account.email, account.password);
    return { account, client };
  }

  it("sends a NEW account from / (and other signed-in pages) to /welcome, which explains the number", async () => {
    const { client } = await newAccount();
    const home = await client.get("/");
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/welcome");
    const welcome = await client.get("/welcome");
    expect(welcome.status).toBe(200);
    const text = pageText(await welcome.text());
    expect(text).toContain("Your dedicated number");
    expect(text).toContain("Get my number");
  });

  it("gets the number with a plain form post, shows it with the join keyword, and opens the home screen", async () => {
    const { account, client } = await newAccount();
    const res = await client.post("/welcome", {});
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/welcome/success");
    const row = await t.app.db.selectFrom("businesses").select(["phone_number", "onboarding"]).where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(row.onboarding).toBe("COMPLETE");
    const national = `0${row.phone_number!.slice(3, 7)} ${row.phone_number!.slice(7)}`;
    const success = pageText(await (await client.get("/welcome/success")).text());
    expect(success).toContain("Your number is ready");
    expect(success).toContain(national);
    expect(success).toContain("JOIN");
    expect(success).toContain("Go to your home screen");
    const home = await client.get("/");
    expect(home.status).toBe(200);
    expect(pageText(await home.text())).toContain("Your number is ready");

    // Done once: posting again is BR007, shown on the page.
    const again = await client.post("/welcome", {});
    expect(again.status).toBe(400);
    expect(pageText(await again.text())).toContain("This account has already been set up.");
  });

  it("shows SU001 on /welcome/incomplete when the simulator refuses, and succeeds after 'Try again'", async () => {
    const { account, client } = await newAccount();
    const sim = t.app.client();
    const refuse = await sim.post("/simulator", { intent: "refuse", refuse: "on" });
    expect(refuse.status).toBe(302);
    try {
      const res = await client.post("/welcome", {});
      expect(res.headers.get("location")).toBe("/welcome/incomplete");
      const page = await client.get("/welcome/incomplete");
      expect(page.status).toBe(200);
      const text = pageText(await page.text());
      expect(text).toContain("We could not get a number for your business just now. Please try again.");
      expect(text).toContain("Try again");
      expect((await client.get("/")).headers.get("location")).toBe("/welcome");
    } finally {
      expect((await sim.post("/simulator", { intent: "refuse", refuse: "off" })).status).toBe(302);
    }
    const retry = await client.post("/welcome", {});
    expect(retry.headers.get("location")).toBe("/welcome/success");
    const row = await t.app.db.selectFrom("businesses").select(["onboarding", "phone_number"]).where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(row.onboarding).toBe("COMPLETE");
    expect(row.phone_number).toMatch(/^\+447700900\d{3}$/);
  });

  it("sends /welcome/success back to /welcome before the number exists", async () => {
    const { client } = await newAccount();
    const res = await client.get("/welcome/success");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/welcome");
  });
});
