// Groups on both databases: list groups, smart-group SQL for every operator, AND/OR, injection
// attempts, tenancy, counts, recipient resolution by createMessage, deleting a group with pending messages.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { Clock, middayToday, pipelineDeps, seedMembers } from "../support/pipeline";
import {
  addGroupMembers,
  countGroupMembers,
  createGroup,
  deleteGroup,
  getGroup,
  groupMembersPage,
  listGroups,
  memberIdsQuery,
  pendingGroupMessages,
  previewFilterCount,
  removeGroupMembers,
  searchMembersForGroup,
  smartGroupsUsingListItem,
  updateGroup,
} from "~/domain/groups/groups.server";
import { createMessage } from "~/domain/messaging/outbound.server";
import type { Database } from "#db/index";
import { appError } from "../support/errors";

const NOW = new Date("2026-06-15T12:00:00Z");

async function attribute(db: Database, businessId: number, key: string, type: string, items: string[] = []) {
  const a = await db
    .insertInto("attributes")
    .values({ business_id: businessId, key, name: key, type: type as never, created_at: NOW.toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  const itemIds: number[] = [];
  for (const [i, label] of items.entries()) {
    const r = await db.insertInto("attribute_list_items").values({ attribute_id: a.id, label, position: i }).returning("id").executeTakeFirstOrThrow();
    itemIds.push(Number(r.id));
  }
  return { id: Number(a.id), itemIds };
}

async function setValue(db: Database, businessId: number, memberId: number, attributeId: number, v: { text?: string; number?: number }) {
  await db
    .insertInto("member_attribute_values")
    .values({ business_id: businessId, member_id: memberId, attribute_id: attributeId, value_text: v.text ?? null, value_number: v.number ?? null })
    .execute();
}

describe.each(DIALECTS)("groups (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let businessId: number;
  let otherId: number;
  let m: Array<{ id: number; phone: string }>;
  let attrs: { colour: { id: number; itemIds: number[] }; visits: { id: number }; town: { id: number }; renewal: { id: number }; slot: { id: number }; pet: { id: number } };

  // Five subscribed members with varied attributes, one pending, one opted out; another business alike.
  beforeEach(async () => {
    businessId = await createBusiness(t.db, { messageAllowance: 1000 });
    otherId = await createBusiness(t.db, { messageAllowance: 1000 });
    m = await seedMembers(t.db, businessId, 5, { firstName: (i) => ["Alice", "Bob", "Carol", "Dan", "100%_off"][i] });
    const pending = await seedMembers(t.db, businessId, 1, { status: "PENDING", firstName: () => "Alice pending" });
    const out = await seedMembers(t.db, businessId, 1, { status: "OPTED_OUT", firstName: () => "Alice out" });
    m.push(pending[0], out[0]);
    const other = await seedMembers(t.db, otherId, 2, { firstName: () => "Alice" });
    const set = (id: number, v: Record<string, string | null>) => t.db.updateTable("members").set(v).where("id", "=", id).execute();
    await set(m[0].id, { full_name: "Alice Smith", birthday: "03-14", joined_at: "2026-01-10T09:00:00.000Z", appointment_at: "2026-07-01T10:00:00.000Z", note: "Likes sourdough" });
    await set(m[1].id, { full_name: "Bob Jones", birthday: "12-01", joined_at: "2026-03-05T09:00:00.000Z", note: "gluten free" });
    await set(m[3].id, { joined_at: null });
    await set(m[4].id, { joined_at: null });
    await set(m[2].id, { full_name: "Carol Smith", birthday: "03-30", joined_at: "2026-05-20T09:00:00.000Z", appointment_at: "2026-07-02T09:00:00.000Z" });
    attrs = {
      colour: await attribute(t.db, businessId, "colour", "LIST", ["Red", "Blue"]),
      visits: await attribute(t.db, businessId, "visits", "NUMBER"),
      town: await attribute(t.db, businessId, "town", "TEXT"),
      renewal: await attribute(t.db, businessId, "renewal", "DATE"),
      slot: await attribute(t.db, businessId, "slot", "TIME"),
      pet: await attribute(t.db, businessId, "pet_birthday", "BIRTHDAY"),
    };
    await setValue(t.db, businessId, m[0].id, attrs.colour.id, { number: attrs.colour.itemIds[0] });
    await setValue(t.db, businessId, m[1].id, attrs.colour.id, { text: "Blue" });
    await setValue(t.db, businessId, m[2].id, attrs.colour.id, { number: attrs.colour.itemIds[0] });
    for (const [i, n] of [3, 10, 25.5, 0].entries()) await setValue(t.db, businessId, m[i].id, attrs.visits.id, { number: n });
    await setValue(t.db, businessId, m[0].id, attrs.town.id, { text: "Leeds" });
    await setValue(t.db, businessId, m[1].id, attrs.town.id, { text: "Bradford" });
    await setValue(t.db, businessId, m[0].id, attrs.renewal.id, { text: "2026-08-01" });
    await setValue(t.db, businessId, m[1].id, attrs.renewal.id, { text: "2026-09-15" });
    await setValue(t.db, businessId, m[0].id, attrs.slot.id, { text: "09:30" });
    await setValue(t.db, businessId, m[1].id, attrs.slot.id, { text: "14:00" });
    await setValue(t.db, businessId, m[3].id, attrs.pet.id, { text: "07-04" });
    // The other business's member has the same values: never counted here.
    await setValue(t.db, otherId, other[0].id, (await attribute(t.db, otherId, "visits", "NUMBER")).id, { number: 99 });
  });

  async function ids(filter: unknown): Promise<number[]> {
    const groupId = await createGroup(t.db, businessId, { name: "G", type: "SMART", filter }, NOW);
    const rows = await (await memberIdsQuery(t.db, businessId, groupId)).orderBy("members.id").execute();
    return rows.map((r) => Number(r.id));
  }
  const one = (field: string, op: string, value: string) => ({ match: "ALL", conditions: [{ field, op, value }] });

  it("text contains and equals on member columns, case-insensitive, with % and _ taken literally", async () => {
    expect(await ids(one("firstName", "contains", "li"))).toEqual([m[0].id]); // Alice (pending/opted-out Alices are not subscribed)
    expect(await ids(one("fullName", "contains", "SMITH"))).toEqual([m[0].id, m[2].id]);
    expect(await ids(one("firstName", "equals", "bob"))).toEqual([m[1].id]);
    expect(await ids(one("firstName", "contains", "%"))).toEqual([m[4].id]);
    expect(await ids(one("firstName", "contains", "_"))).toEqual([m[4].id]);
    expect(await ids(one("note", "contains", "GLUTEN"))).toEqual([m[1].id]);
  });

  it("birthday in month, joined before/after/on, appointment date, opted in", async () => {
    expect(await ids(one("birthday", "inMonth", "3"))).toEqual([m[0].id, m[2].id]);
    expect(await ids(one("birthday", "inMonth", "12"))).toEqual([m[1].id]);
    expect(await ids(one("joinedAt", "before", "2026-03-05"))).toEqual([m[0].id]);
    expect(await ids(one("joinedAt", "after", "2026-03-05"))).toEqual([m[2].id]);
    expect(await ids(one("joinedAt", "on", "2026-03-05"))).toEqual([m[1].id]);
    expect(await ids(one("appointmentAt", "on", "2026-07-02"))).toEqual([m[2].id]);
    // UK days, not UTC days: 00:30 on 21 May in London (BST) is 23:30 UTC on 20 May.
    const set = (id: number, v: Record<string, string | null>) => t.db.updateTable("members").set(v).where("id", "=", id).execute();
    await set(m[2].id, { joined_at: "2026-05-20T23:30:00.000Z", appointment_at: "2026-07-01T23:15:00.000Z" });
    expect(await ids(one("joinedAt", "on", "2026-05-21"))).toEqual([m[2].id]);
    expect(await ids(one("joinedAt", "on", "2026-05-20"))).toEqual([]);
    expect(await ids(one("joinedAt", "after", "2026-05-20"))).toEqual([m[2].id]);
    expect(await ids(one("joinedAt", "before", "2026-05-21"))).toEqual([m[0].id, m[1].id]);
    expect(await ids(one("appointmentAt", "on", "2026-07-02"))).toEqual([m[2].id]);
    expect(await ids(one("appointmentAt", "before", "2026-07-02"))).toEqual([m[0].id]);
    // In winter (GMT) the UK day and the UTC day are the same.
    await set(m[2].id, { joined_at: "2026-01-10T23:30:00.000Z" });
    expect(await ids(one("joinedAt", "on", "2026-01-10"))).toEqual([m[0].id, m[2].id]);
    expect(await ids(one("joinedAt", "after", "2026-01-10"))).toEqual([m[1].id]);
    await set(m[2].id, { joined_at: "2026-05-20T09:00:00.000Z", appointment_at: "2026-07-02T09:00:00.000Z" });
    expect(await ids(one("optedIn", "is", "yes"))).toHaveLength(5);
    // The pending member matches "no" in the preview count but is never a recipient.
    expect(await ids(one("optedIn", "is", "no"))).toEqual([]);
    expect(await previewFilterCount(t.db, businessId, one("optedIn", "is", "no"))).toEqual({ subscribed: 0, pending: 1 });
  });

  it("number comparisons, list item is (by id or label), custom text, date, time and birthday", async () => {
    const v = `attr:${attrs.visits.id}`;
    expect(await ids(one(v, "eq", "10"))).toEqual([m[1].id]);
    expect(await ids(one(v, "ne", "10"))).toEqual([m[0].id, m[2].id, m[3].id]);
    expect(await ids(one(v, "lt", "10"))).toEqual([m[0].id, m[3].id]);
    expect(await ids(one(v, "lte", "10"))).toEqual([m[0].id, m[1].id, m[3].id]);
    expect(await ids(one(v, "gt", "10"))).toEqual([m[2].id]);
    expect(await ids(one(v, "gte", "25.5"))).toEqual([m[2].id]);
    expect(await ids(one(`attr:${attrs.colour.id}`, "is", String(attrs.colour.itemIds[0])))).toEqual([m[0].id, m[2].id]);
    expect(await ids(one(`attr:${attrs.colour.id}`, "is", String(attrs.colour.itemIds[1])))).toEqual([m[1].id]);
    expect(await ids(one(`attr:${attrs.town.id}`, "contains", "brad"))).toEqual([m[1].id]);
    expect(await ids(one(`attr:${attrs.town.id}`, "equals", "LEEDS"))).toEqual([m[0].id]);
    expect(await ids(one(`attr:${attrs.renewal.id}`, "after", "2026-08-01"))).toEqual([m[1].id]);
    expect(await ids(one(`attr:${attrs.renewal.id}`, "before", "2026-09-01"))).toEqual([m[0].id]);
    expect(await ids(one(`attr:${attrs.slot.id}`, "before", "12:00"))).toEqual([m[0].id]);
    expect(await ids(one(`attr:${attrs.slot.id}`, "on", "14:00"))).toEqual([m[1].id]);
    expect(await ids(one(`attr:${attrs.pet.id}`, "inMonth", "7"))).toEqual([m[3].id]);
  });

  it("combines conditions with AND and OR", async () => {
    const conds = [
      { field: "fullName", op: "contains", value: "smith" },
      { field: `attr:${attrs.visits.id}`, op: "lt", value: "5" },
    ];
    expect(await ids({ match: "ALL", conditions: conds })).toEqual([m[0].id]);
    expect(await ids({ match: "ANY", conditions: conds })).toEqual([m[0].id, m[2].id, m[3].id]);
    expect(await ids({ match: "ALL", conditions: [] })).toHaveLength(5);
  });

  it("binds values: SQL fragments match literally and change nothing", async () => {
    for (const value of ["' OR 1=1 --", "x'); DROP TABLE members; --", "%' OR '1'='1"]) {
      expect(await ids(one("firstName", "contains", value))).toEqual([]);
    }
    expect(Number((await t.db.selectFrom("members").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n)).toBeGreaterThanOrEqual(9);
  });

  it("validates: numbers for numeric comparisons (§5), dates, months, operator fits the field, attributes of this business only", async () => {
    const bad = async (filter: unknown) => (await appError(createGroup(t.db, businessId, { name: "Bad", type: "SMART", filter }, NOW))).code;
    expect(await bad(one(`attr:${attrs.visits.id}`, "gt", "ten"))).toBe("BR025");
    expect(await bad(one(`attr:${attrs.visits.id}`, "gt", "1; DELETE"))).toBe("BR025");
    expect(await bad(one("joinedAt", "before", "2026-02-30"))).toBe("BR025");
    expect(await bad(one("birthday", "inMonth", "13"))).toBe("BR025");
    expect(await bad(one("firstName", "gt", "3"))).toBe("BR025");
    expect(await bad(one("members.id", "equals", "1"))).toBe("BR025");
    expect(await bad(one(`attr:${attrs.colour.id}`, "is", "999999"))).toBe("BR025");
    const foreign = await attribute(t.db, otherId, "secret", "TEXT");
    expect(await bad(one(`attr:${foreign.id}`, "contains", "a"))).toBe("BR025");
    expect(await bad({ match: "ALL", conditions: Array.from({ length: 11 }, () => ({ field: "firstName", op: "contains", value: "a" })) })).toBe("BR025");
    expect(await t.db.selectFrom("groups").select("id").where("business_id", "=", businessId).execute()).toHaveLength(0);
  });

  it("list groups: add, remove, search, count only subscribed, tenancy", async () => {
    const g = await createGroup(t.db, businessId, { name: "Regulars", type: "LIST" }, NOW);
    // Another business's member and unknown ids are ignored; the pending member counts as a member but not a recipient.
    expect(await addGroupMembers(t.db, businessId, g, [m[0].id, m[1].id, m[5].id, 999999], NOW)).toBe(3);
    expect(await addGroupMembers(t.db, businessId, g, [m[0].id], NOW)).toBe(0);
    expect(await countGroupMembers(t.db, businessId, g)).toBe(2);
    expect((await groupMembersPage(t.db, businessId, g, 0)).map((r) => r.id)).toEqual([m[0].id, m[1].id, m[5].id]);
    const found = await searchMembersForGroup(t.db, businessId, g, "ali");
    expect(found.map((r) => [r.id, r.inGroup])).toEqual([
      [m[0].id, true],
      [m[5].id, true],
    ]);
    expect((await searchMembersForGroup(t.db, businessId, g, m[2].phone.slice(-6))).map((r) => r.id)).toEqual([m[2].id]);
    expect(await removeGroupMembers(t.db, businessId, g, [m[1].id], NOW)).toBe(1);
    expect(await countGroupMembers(t.db, businessId, g)).toBe(1);
    expect((await appError(getGroup(t.db, otherId, g))).code).toBe("NF001");
    expect((await appError(addGroupMembers(t.db, otherId, g, [m[2].id], NOW))).code).toBe("NF001");
    expect((await appError(countGroupMembers(t.db, otherId, g))).code).toBe("NF001");
  });

  it("lists groups with counts, all subscribers first; renames; finds smart groups using a list item", async () => {
    const list = await createGroup(t.db, businessId, { name: "Regulars", type: "LIST" }, NOW);
    await addGroupMembers(t.db, businessId, list, [m[0].id, m[2].id], NOW);
    const red = String(attrs.colour.itemIds[0]);
    const smart = await createGroup(t.db, businessId, { name: "Reds", type: "SMART", filter: one(`attr:${attrs.colour.id}`, "is", red) }, NOW);
    await createGroup(t.db, otherId, { name: "Theirs", type: "LIST" }, NOW);
    const groups = await listGroups(t.db, businessId);
    expect(groups.map((g) => [g.id, g.type, g.count])).toEqual([
      [-1, "ALL", 5],
      [smart, "SMART", 2],
      [list, "LIST", 2],
    ]);
    await updateGroup(t.db, businessId, smart, { name: "Blues", filter: one(`attr:${attrs.colour.id}`, "is", String(attrs.colour.itemIds[1])) }, NOW);
    expect(await countGroupMembers(t.db, businessId, smart)).toBe(1);
    expect(await smartGroupsUsingListItem(t.db, businessId, attrs.colour.itemIds[1])).toEqual([{ id: smart, name: "Blues" }]);
    expect(await smartGroupsUsingListItem(t.db, businessId, attrs.colour.itemIds[0])).toEqual([]);
    // A smart group whose attribute was deleted matches nobody rather than everybody.
    await t.db.deleteFrom("attributes").where("id", "=", attrs.colour.id).execute();
    expect(await countGroupMembers(t.db, businessId, smart)).toBe(0);
  });

  it("createMessage sends to a list or smart group's subscribed members only; another business's group is NF001", async () => {
    const clock = new Clock(middayToday());
    const deps = pipelineDeps(t.db, clock);
    const smart = await createGroup(t.db, businessId, { name: "Smiths", type: "SMART", filter: one("fullName", "contains", "smith") }, NOW);
    const sent = await createMessage(deps, { businessId, kind: "GROUP", groupId: smart, body: "Hi {{firstName}}" });
    expect(sent.recipients).toBe(2);
    const rows = await t.db.selectFrom("outbound").select(["member_id", "body"]).where("message_id", "=", sent.messageId).orderBy("member_id").execute();
    expect(rows).toEqual([
      { member_id: m[0].id, body: "Hi Alice\nReply STOP to opt out" },
      { member_id: m[2].id, body: "Hi Carol\nReply STOP to opt out" },
    ]);
    const list = await createGroup(t.db, businessId, { name: "Pending only", type: "LIST" }, NOW);
    await addGroupMembers(t.db, businessId, list, [m[5].id], NOW);
    expect((await appError(createMessage(deps, { businessId, kind: "GROUP", groupId: list, body: "Hi" }))).code).toBe("BR026");
    expect((await appError(createMessage(deps, { businessId: otherId, kind: "GROUP", groupId: smart, body: "Hi" }))).code).toBe("NF001");
  });

  it("deleting a group with pending messages deletes them and refunds their credits", async () => {
    const clock = new Clock(middayToday());
    const deps = pipelineDeps(t.db, clock);
    const g = await createGroup(t.db, businessId, { name: "Regulars", type: "LIST" }, NOW);
    await addGroupMembers(t.db, businessId, g, [m[0].id, m[1].id], NOW);
    const before = await t.db.selectFrom("businesses").select("allowance_used").where("id", "=", businessId).executeTakeFirstOrThrow();
    const msg = await createMessage(deps, { businessId, kind: "GROUP", groupId: g, body: "Hello", sendAt: new Date(clock.now().getTime() + 86_400_000) });
    expect(await pendingGroupMessages(t.db, businessId, g)).toBe(1);
    expect((await appError(deleteGroup(deps, otherId, g))).code).toBe("NF001");
    expect(await deleteGroup(deps, businessId, g)).toEqual({ messagesDeleted: 1 });
    expect(await t.db.selectFrom("messages").select("id").where("id", "=", msg.messageId).execute()).toEqual([]);
    expect(await t.db.selectFrom("groups").select("id").where("id", "=", g).execute()).toEqual([]);
    const after = await t.db.selectFrom("businesses").select("allowance_used").where("id", "=", businessId).executeTakeFirstOrThrow();
    expect(after.allowance_used).toBe(before.allowance_used);
  });
});
