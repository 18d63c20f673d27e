// Adding members to a list group in bulk: the ticked ones, or everyone matching a search (at most
// BULK_ADD_MAX a time), on both databases and over HTTP without JavaScript; another business's members
// are never added and another business's group is 404.
import { beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createBusiness } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { pageText, useTestApp, type TestClient } from "../support/server";
import { addMatchingMembers, BULK_ADD_MAX, countGroupMembers, countMatchingNotInGroup, createGroup, searchMembersForGroup } from "~/domain/groups/groups.server";
import { appError } from "../support/errors";

const NOW = new Date("2026-06-15T12:00:00Z");

describe.each(DIALECTS)("adding everyone matching a search (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("adds every match not yet in the group, only this business's, and counts what is left to add", async () => {
    const biz = await createBusiness(t.db);
    const other = await createBusiness(t.db);
    const names = ["Harriet", "Harry", "Harold", "Priya", "Harvey"];
    const members = await seedMembers(t.db, biz, names.length, { firstName: (i) => names[i] });
    await seedMembers(t.db, biz, 1, { firstName: () => "Harper", status: "OPTED_OUT" });
    await seedMembers(t.db, other, 3, { firstName: () => "Harris" });
    const group = await createGroup(t.db, biz, { name: "H people", type: "LIST" }, NOW);

    expect(await countMatchingNotInGroup(t.db, biz, group, "har")).toBe(4);
    expect(await addMatchingMembers(t.db, biz, group, "har", NOW)).toEqual({ added: 4, more: false });
    expect(await countGroupMembers(t.db, biz, group)).toBe(4);
    expect(await countMatchingNotInGroup(t.db, biz, group, "har")).toBe(0);
    // Pressed again: nothing new, nothing twice.
    expect(await addMatchingMembers(t.db, biz, group, "har", NOW)).toEqual({ added: 0, more: false });
    // An empty search adds no one (never "everyone").
    expect(await addMatchingMembers(t.db, biz, group, "   ", NOW)).toEqual({ added: 0, more: false });
    const found = await searchMembersForGroup(t.db, biz, group, "har", 50);
    expect(found.map((m) => [m.first_name, m.inGroup])).toEqual([
      ["Harriet", true],
      ["Harry", true],
      ["Harold", true],
      ["Harvey", true],
    ]);
    expect(found.map((m) => m.id)).not.toContain(members[3].id);
    // Another business's group is not found.
    expect((await appError(addMatchingMembers(t.db, other, group, "har", NOW))).code).toBe("NF001");
  });

  it(`adds at most ${BULK_ADD_MAX} at a time and says more remain`, { timeout: 60_000 }, async () => {
    const biz = await createBusiness(t.db);
    await seedMembers(t.db, biz, BULK_ADD_MAX + 2, { firstName: (i) => `Bulk${i}` });
    const group = await createGroup(t.db, biz, { name: "Bulk", type: "LIST" }, NOW);
    expect(await addMatchingMembers(t.db, biz, group, "bulk", NOW)).toEqual({ added: BULK_ADD_MAX, more: true });
    expect(await addMatchingMembers(t.db, biz, group, "bulk", NOW)).toEqual({ added: 2, more: false });
    expect(await countGroupMembers(t.db, biz, group)).toBe(BULK_ADD_MAX + 2);
  });
});

describe("bulk add over HTTP (no JavaScript)", () => {
  const t = useTestApp();
  let client: TestClient;
  let members: Array<{ id: number; phone: string }>;
  let strangers: Array<{ id: number; phone: string }>;
  let loc: string;

  beforeAll(async () => {
    const account = await createAccount(t.app.db, { messageAllowance: 1000 });
    client = t.app.client();
    await client.login(account.email, account.password);
    members = await seedMembers(t.app.db, account.businessId, 5, { firstName: (i) => ["Tilly", "Tim", "Tina", "Omar", "Tobias"][i] });
    const otherBusiness = await createBusiness(t.app.db);
    strangers = await seedMembers(t.app.db, otherBusiness, 2, { firstName: () => "Tiberius" });
    const made = await client.post("/groups", { name: "T names", type: "LIST" });
    loc = made.headers.get("location")!;
  });

  it("lists matches with tick boxes, adds the ticked ones (ignoring another business's ids), then adds all the rest", async () => {
    const html = await (await client.get(`${loc}?q=ti`)).text();
    expect(pageText(html)).toContain("Add selected");
    expect(pageText(html)).toContain("Add all 3 matching members");
    expect(html.match(/type="checkbox" name="memberId"/g)).toHaveLength(3);

    const ticked = await client.post(loc, { intent: "add", q: "ti", memberId: [String(members[0].id), String(members[2].id), String(strangers[0].id)] });
    expect(ticked.status).toBe(302);
    expect(ticked.headers.get("location")).toBe(`${loc}?q=ti#search`);
    const after = pageText(await (await client.get(`${loc}?q=ti`)).text());
    expect(after).toMatch(/2 subscribed members\./);
    expect(after).toContain("Add the 1 matching member");
    expect(after).not.toContain("Tiberius");

    const all = await client.post(loc, { intent: "addAll", q: "ti" });
    expect(all.status).toBe(302);
    const done = pageText(await (await client.get(`${loc}?q=ti`)).text());
    expect(done).toMatch(/3 subscribed members\./);
    expect(done).toContain("Everyone matching this search is already in the group.");
    expect(done).toContain("Everyone matching the search was added to the group.");
    const inGroup = await t.app.db.selectFrom("group_members").select("member_id").where("group_id", "=", Number(loc.split("/").pop())).execute();
    expect(inGroup.map((r) => r.member_id).sort((a, b) => a - b)).toEqual([members[0].id, members[1].id, members[2].id].sort((a, b) => a - b));
  });

  it("answers nothing ticked with a notice, and another business's group with 404", async () => {
    const none = await client.post(loc, { intent: "add", q: "om" });
    expect(none.status).toBe(302);
    expect(pageText(await (await client.get(none.headers.get("location")!)).text())).toContain("Tick the members to add first.");
    const other = await createAccount(t.app.db);
    const otherClient = t.app.client();
    await otherClient.login(other.email, other.password);
    expect((await otherClient.post(loc, { intent: "addAll", q: "ti" })).status).toBe(404);
    expect((await otherClient.get(`${loc}?q=ti`)).status).toBe(404);
  });
});
