// Community domain on both databases: attributes (rules, list items, smart-group removal, BR043),
// the members list (tabs, counts, search by name/number/attribute, paging, tenancy), invitations
// (double opt-in, BR021/BR039/BR045, consent log, the opt-in text), edits (BR049/BR050/BR021/BR022),
// deletion and rejoining, and the member's own form (join, edit, unsubscribe).
import { describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness, ukMobile } from "../support/factories";
import { AppError } from "~/lib/errors";
import {
  attributeKey,
  createAttribute,
  deleteAttribute,
  isReservedName,
  listAttributes,
  memberValues,
  parseBirthday,
  updateAttribute,
} from "~/domain/members/attributes.server";
import {
  deleteMember,
  inviteMember,
  joinByRef,
  listMembers,
  memberDetail,
  memberFormLink,
  myInfo,
  PAGE_SIZE,
  unsubscribeByRef,
  updateMember,
  updateMyInfo,
  updateOptTexts,
} from "~/domain/members/community.server";
import { insertMember } from "~/domain/members/core.server";
import { createGroup, pendingGroupMessages, smartGroupsUsingListItem } from "~/domain/groups/groups.server";
import { createMessage } from "~/domain/messaging/outbound.server";
import { Clock, middayToday, pipelineDeps } from "../support/pipeline";
import type { Database } from "#db/index";

const NOW = new Date("2026-11-21T12:00:00Z");

async function code(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
}

async function groupIds(db: Database, businessId: number): Promise<number[]> {
  const rows = await db.selectFrom("groups").select("id").where("business_id", "=", businessId).orderBy("id").execute();
  return rows.map((r) => Number(r.id));
}

async function textsTo(db: Database, phone: string) {
  return db.selectFrom("outbound").select(["body", "priority", "charged"]).where("to_phone", "=", phone).orderBy("id").execute();
}

describe("attribute rules", () => {
  it("refuses reserved names in either language and any spacing or case", () => {
    expect(isReservedName("First name")).toBe(true);
    expect(isReservedName("  FIRST_NAME ")).toBe(true);
    expect(isReservedName("firstName")).toBe(true);
    expect(isReservedName("Member form link")).toBe(true);
    expect(isReservedName("Prénom")).toBe(true);
    expect(isReservedName("Favourite drink")).toBe(false);
  });
  it("makes merge-tag keys and parses birthdays dd/mm", () => {
    expect(attributeKey("Favourite drink")).toBe("favouriteDrink");
    expect(attributeKey("Café crème")).toBe("cafeCreme");
    expect(parseBirthday("25/12")).toBe("12-25");
    expect(parseBirthday("29/02")).toBe("02-29");
    expect(parseBirthday("31/04")).toBeNull();
    expect(parseBirthday("12/13")).toBeNull();
    expect(parseBirthday("hello")).toBeNull();
  });
});

describe.each(DIALECTS)("community domain (%s)", (dialect) => {
  const t = useTestDb(dialect);
  const deps = (clock = new Clock(NOW)) => pipelineDeps(t.db, clock);

  it("creates, renames and deletes custom attributes with the §5 rules", async () => {
    const biz = await createBusiness(t.db);
    const drink = await createAttribute(t.db, biz, { name: "Favourite drink", type: "LIST", showOnForm: true, memberCanEdit: true, mandatory: false, items: [{ label: "Tea" }, { label: "Coffee" }] }, NOW);
    expect(await code(createAttribute(t.db, biz, { name: "favourite  DRINK", type: "TEXT", showOnForm: false, memberCanEdit: false, mandatory: false, items: [] }, NOW))).toBe("BR011");
    expect(await code(createAttribute(t.db, biz, { name: "Birthday", type: "TEXT", showOnForm: false, memberCanEdit: false, mandatory: false, items: [] }, NOW))).toBe("BR017");
    expect(await code(createAttribute(t.db, biz, { name: "Size", type: "LIST", showOnForm: false, memberCanEdit: false, mandatory: false, items: [] }, NOW))).toBe("BR049");
    expect(await code(createAttribute(t.db, biz, { name: "Size", type: "LIST", showOnForm: false, memberCanEdit: false, mandatory: false, items: [{ label: "S" }, { label: " s " }] }, NOW))).toBe("BR001");
    // another business may use the same name
    const other = await createBusiness(t.db);
    await createAttribute(t.db, other, { name: "Favourite drink", type: "TEXT", showOnForm: false, memberCanEdit: false, mandatory: false, items: [] }, NOW);

    const [attr] = await listAttributes(t.db, biz);
    expect(attr).toMatchObject({ name: "Favourite drink", key: "favouriteDrink", type: "LIST", show_on_form: 1, member_can_edit: 1, mandatory: 0 });
    expect(attr.items.map((i) => i.label)).toEqual(["Tea", "Coffee"]);

    // a member picks Tea; renaming the item follows to the value; the attribute cannot be deleted
    const m = await insertMember(t.db, { businessId: biz, phone: ukMobile(), status: "SUBSCRIBED", now: NOW });
    await updateMember(t.db, biz, m.id, { values: { [drink]: String(attr.items[0].id) } }, NOW);
    await updateAttribute(deps(), biz, drink, { name: "Drink", type: "LIST", showOnForm: true, memberCanEdit: false, mandatory: false, items: [{ id: attr.items[0].id, label: "Green tea" }, { id: attr.items[1].id, label: "Coffee" }, { label: "Juice" }] });
    const after = (await listAttributes(t.db, biz))[0];
    expect(after.name).toBe("Drink");
    expect(after.items.map((i) => i.label)).toEqual(["Green tea", "Coffee", "Juice"]);
    expect((await memberValues(t.db, biz, m.id)).get(drink)?.value_text).toBe("Green tea");
    expect(await code(deleteAttribute(deps(), biz, drink))).toBe("BR043");
    // another business cannot touch it
    expect(await code(deleteAttribute(deps(), other, drink))).toBe("BR001");

    // removing an item used by a smart group (made through the groups API, the groups' filter format) asks
    // first, changing nothing; confirmed, it removes the item and that group only
    const coffeeId = after.items[1].id;
    const byItem = (itemId: number) => ({ match: "ALL", conditions: [{ field: `attr:${drink}`, op: "is", value: String(itemId) }] });
    const coffeeGroup = await createGroup(t.db, biz, { name: "Coffee people", type: "SMART", filter: byItem(coffeeId) }, NOW);
    const teaGroup = await createGroup(t.db, biz, { name: "Tea people", type: "SMART", filter: byItem(after.items[0].id) }, NOW);
    const regulars = await createGroup(t.db, biz, { name: "Regulars", type: "LIST" }, NOW);
    const without = { name: "Drink", type: "LIST" as const, showOnForm: true, memberCanEdit: false, mandatory: false, items: [{ id: after.items[0].id, label: "Green tea" }, { id: after.items[2].id, label: "Juice" }] };
    const ask = await updateAttribute(deps(), biz, drink, without);
    expect(ask.needsConfirmation).toEqual([{ id: coffeeGroup, name: "Coffee people" }]);
    expect((await listAttributes(t.db, biz))[0].items.map((i) => i.label)).toEqual(["Green tea", "Coffee", "Juice"]);
    expect(await groupIds(t.db, biz)).toEqual([coffeeGroup, teaGroup, regulars].sort((a, b) => a - b));
    expect(await updateAttribute(deps(), biz, drink, without, { confirmRemoveGroups: true })).toEqual({});
    expect((await listAttributes(t.db, biz))[0].items.map((i) => i.label)).toEqual(["Green tea", "Juice"]);
    expect(await groupIds(t.db, biz)).toEqual([teaGroup, regulars].sort((a, b) => a - b));
    expect(await smartGroupsUsingListItem(t.db, biz, coffeeId)).toEqual([]);

    // once no member holds data it can be deleted; the smart group still using it is named first and
    // removed with it on confirmation (it would otherwise match nobody); the list group stays
    await updateMember(t.db, biz, m.id, { values: { [drink]: "" } }, NOW);
    expect(await deleteAttribute(deps(), biz, drink)).toEqual({ needsConfirmation: [{ id: teaGroup, name: "Tea people" }] });
    expect((await listAttributes(t.db, biz)).map((a) => a.name)).toEqual(["Drink"]);
    expect(await groupIds(t.db, biz)).toEqual([teaGroup, regulars].sort((a, b) => a - b));
    expect(await code(deleteAttribute(deps(), other, drink, { confirmRemoveGroups: true }))).toBe("BR001");
    expect(await deleteAttribute(deps(), biz, drink, { confirmRemoveGroups: true })).toEqual({});
    expect(await listAttributes(t.db, biz)).toEqual([]);
    expect(await groupIds(t.db, biz)).toEqual([regulars]);
  });

  it("deletes an attribute no smart group uses without asking; another business's groups are never touched", async () => {
    const biz = await createBusiness(t.db);
    const other = await createBusiness(t.db);
    const size = await createAttribute(t.db, biz, { name: "Size", type: "LIST", showOnForm: false, memberCanEdit: false, mandatory: false, items: [{ label: "S" }, { label: "M" }] }, NOW);
    const visits = await createAttribute(t.db, biz, { name: "Visits", type: "NUMBER", showOnForm: false, memberCanEdit: false, mandatory: false, items: [] }, NOW);
    const theirs = await createAttribute(t.db, other, { name: "Size", type: "LIST", showOnForm: false, memberCanEdit: false, mandatory: false, items: [{ label: "S" }] }, NOW);
    const theirItem = (await listAttributes(t.db, other))[0].items[0].id;
    const theirGroup = await createGroup(t.db, other, { name: "Small", type: "SMART", filter: { conditions: [{ field: `attr:${theirs}`, op: "is", value: String(theirItem) }] } }, NOW);
    const frequent = await createGroup(t.db, biz, { name: "Frequent", type: "SMART", filter: { conditions: [{ field: `attr:${visits}`, op: "gte", value: "5" }] } }, NOW);
    expect(await deleteAttribute(deps(), biz, size)).toEqual({});
    expect((await deleteAttribute(deps(), biz, visits)).needsConfirmation).toEqual([{ id: frequent, name: "Frequent" }]);
    expect(await groupIds(t.db, other)).toEqual([theirGroup]);
    expect((await listAttributes(t.db, biz)).map((a) => a.name)).toEqual(["Visits"]);
  });

  it("removing a list item or attribute drops its smart groups' pending messages and refunds their credits", async () => {
    const clock = new Clock(middayToday());
    const biz = await createBusiness(t.db, { messageAllowance: 1000 });
    const other = await createBusiness(t.db, { messageAllowance: 1000 });
    const balance = async (id: number) => t.db.selectFrom("businesses").select(["allowance_used", "trial_credits"]).where("id", "=", id).executeTakeFirstOrThrow();
    const messageIds = async (id: number) => (await t.db.selectFrom("messages").select("id").where("business_id", "=", id).orderBy("id").execute()).map((r) => Number(r.id));
    const tomorrow = () => new Date(clock.now().getTime() + 86_400_000);
    const listAttr = async (businessId: number) => {
      const id = await createAttribute(t.db, businessId, { name: "Drink", type: "LIST", showOnForm: false, memberCanEdit: false, mandatory: false, items: [{ label: "Tea" }, { label: "Coffee" }] }, NOW);
      const items = (await listAttributes(t.db, businessId))[0].items;
      for (const item of items) {
        const m = await insertMember(t.db, { businessId, phone: ukMobile(), status: "SUBSCRIBED", now: NOW });
        await updateMember(t.db, businessId, m.id, { values: { [id]: String(item.id) } }, NOW);
      }
      const groupFor = (itemId: number, name: string) => createGroup(t.db, businessId, { name, type: "SMART", filter: { match: "ALL", conditions: [{ field: `attr:${id}`, op: "is", value: String(itemId) }] } }, NOW);
      return { id, items, groupFor };
    };
    const drink = await listAttr(biz);
    const coffeeGroup = await drink.groupFor(drink.items[1].id, "Coffee people");
    const teaGroup = await drink.groupFor(drink.items[0].id, "Tea people");
    const theirs = await listAttr(other);
    const theirGroup = await theirs.groupFor(theirs.items[1].id, "Coffee people");
    const theirMessage = await createMessage(deps(clock), { businessId: other, kind: "GROUP", groupId: theirGroup, body: "Hello", sendAt: tomorrow() });

    const before = await balance(biz);
    const teaMsg = await createMessage(deps(clock), { businessId: biz, kind: "GROUP", groupId: teaGroup, body: "Tea time", sendAt: tomorrow() });
    const teaOnly = await balance(biz);
    const coffeeMsg = await createMessage(deps(clock), { businessId: biz, kind: "GROUP", groupId: coffeeGroup, body: "Coffee morning", sendAt: tomorrow() });
    expect(coffeeMsg.credits).toBeGreaterThan(0);
    expect(await balance(biz)).not.toEqual(teaOnly);

    // asked first: nothing changes, the message stays scheduled
    const without = { name: "Drink", type: "LIST" as const, showOnForm: false, memberCanEdit: false, mandatory: false, items: [{ id: drink.items[0].id, label: "Tea" }] };
    expect((await updateAttribute(deps(clock), biz, drink.id, without)).needsConfirmation).toEqual([{ id: coffeeGroup, name: "Coffee people" }]);
    expect(await pendingGroupMessages(t.db, biz, coffeeGroup)).toBe(1);
    expect(await messageIds(biz)).toEqual([teaMsg.messageId, coffeeMsg.messageId]);

    // confirmed: the group goes and so does its scheduled message, its credits given back
    expect(await updateAttribute(deps(clock), biz, drink.id, without, { confirmRemoveGroups: true })).toEqual({});
    expect(await groupIds(t.db, biz)).toEqual([teaGroup]);
    expect(await messageIds(biz)).toEqual([teaMsg.messageId]);
    expect(await t.db.selectFrom("outbound").select("id").where("message_id", "=", coffeeMsg.messageId).execute()).toEqual([]);
    expect(await balance(biz)).toEqual(teaOnly);

    // deleting the whole attribute (no member holds data once the values are cleared) does the same
    const members = await t.db.selectFrom("member_attribute_values").select("member_id").where("attribute_id", "=", drink.id).execute();
    for (const m of members) await updateMember(t.db, biz, Number(m.member_id), { values: { [drink.id]: "" } }, NOW);
    expect(await deleteAttribute(deps(clock), biz, drink.id, { confirmRemoveGroups: true })).toEqual({});
    expect(await groupIds(t.db, biz)).toEqual([]);
    expect(await messageIds(biz)).toEqual([]);
    expect(await balance(biz)).toEqual(before);

    // the other business's group and scheduled message are untouched
    expect(await groupIds(t.db, other)).toEqual([theirGroup]);
    expect(await messageIds(other)).toEqual([theirMessage.messageId]);
  });

  it("invites with double opt-in: PENDING, consent logged, the opt-in text; then the rules for repeats", async () => {
    const biz = await createBusiness(t.db, { name: "Corner Café" });
    const phone = ukMobile();
    const national = `0${phone.slice(3)}`;
    const m = await inviteMember(t.db, biz, { phone: national, firstName: "Ann", fullName: "Ann Lee", values: {} }, NOW);
    expect(m).toMatchObject({ status: "PENDING", phone, first_name: "Ann", full_name: "Ann Lee", invited_at: NOW.toISOString() });
    const texts = await textsTo(t.db, phone);
    expect(texts).toHaveLength(1);
    expect(texts[0].body).toBe("Corner Café: reply YES to join our text messages. Reply STOP at any time to opt out.");
    expect(texts[0].charged).toBe(0);
    const d = await memberDetail(t.db, biz, m.id);
    expect(d.consent.map((c) => [c.action, c.channel])).toEqual([["OPT_IN_REQUESTED", "INVITE"]]);

    expect(await code(inviteMember(t.db, biz, { phone, values: {} }, NOW))).toBe("BR045");
    expect(await code(inviteMember(t.db, biz, { phone: "01632 960000", values: {} }, NOW))).toBe("BR050");
    expect(await code(inviteMember(t.db, biz, { phone: ukMobile(), firstName: "<b>x</b>", values: {} }, NOW))).toBe("BR022");

    // the business's own opt-in text is used when set
    await updateOptTexts(t.db, biz, { optIn: "{{businessName}}: join us! Reply YES, or STOP to opt out", optOut: "" });
    const p2 = ukMobile();
    await inviteMember(t.db, biz, { phone: p2, values: {} }, NOW);
    const bizName = (await t.db.selectFrom("businesses").select("name").where("id", "=", biz).executeTakeFirstOrThrow()).name;
    expect((await textsTo(t.db, p2))[0].body).toBe(`${bizName}: join us! Reply YES, or STOP to opt out`);

    // subscribed -> BR021; opted out -> BR039 (only they can rejoin)
    const sub = await insertMember(t.db, { businessId: biz, phone: ukMobile(), status: "SUBSCRIBED", now: NOW });
    expect(await code(inviteMember(t.db, biz, { phone: sub.phone, values: {} }, NOW))).toBe("BR021");
    const out = await insertMember(t.db, { businessId: biz, phone: ukMobile(), status: "OPTED_OUT", now: NOW });
    expect(await code(inviteMember(t.db, biz, { phone: out.phone, values: {} }, NOW))).toBe("BR039");

    // a deleted member can be invited again: same row, PENDING, log kept
    await deleteMember(t.db, biz, m.id, NOW);
    expect(await code(memberDetail(t.db, biz, m.id))).toBe("BR001");
    const again = await inviteMember(t.db, biz, { phone, values: {} }, new Date(NOW.getTime() + 60_000));
    expect(again.id).toBe(m.id);
    expect(again.status).toBe("PENDING");
    expect((await memberDetail(t.db, biz, m.id)).consent).toHaveLength(2);
  });

  it("checks mandatory attributes (BR049), numbers and dates (BR025), phone numbers (BR050) and duplicates (BR021) on edit", async () => {
    const biz = await createBusiness(t.db);
    const size = await createAttribute(t.db, biz, { name: "Shoe size", type: "NUMBER", showOnForm: false, memberCanEdit: false, mandatory: true, items: [] }, NOW);
    const m = await insertMember(t.db, { businessId: biz, phone: ukMobile(), status: "SUBSCRIBED", now: NOW });
    const other = await insertMember(t.db, { businessId: biz, phone: ukMobile(), status: "SUBSCRIBED", now: NOW });
    expect(await code(updateMember(t.db, biz, m.id, { firstName: "Bo", values: {} }, NOW))).toBe("BR049");
    expect(await code(updateMember(t.db, biz, m.id, { values: { [size]: "nine" } }, NOW))).toBe("BR025");
    expect(await code(updateMember(t.db, biz, m.id, { phone: "12345", values: { [size]: "9" } }, NOW))).toBe("BR050");
    expect(await code(updateMember(t.db, biz, m.id, { phone: other.phone, values: { [size]: "9" } }, NOW))).toBe("BR021");
    expect(await code(updateMember(t.db, biz, m.id, { birthday: "31/02", values: { [size]: "9" } }, NOW))).toBe("BR025");
    // nothing was saved half-way
    expect((await memberValues(t.db, biz, m.id)).size).toBe(0);
    const later = new Date(NOW.getTime() + 3600_000);
    await updateMember(t.db, biz, m.id, { firstName: "Bo", fullName: "Bo Diddley", birthday: "02/03", appointmentDate: "2026-12-24", appointmentTime: "15:30", note: "Likes jazz", values: { [size]: "9.5" } }, later);
    const row = await t.db.selectFrom("members").selectAll().where("id", "=", m.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ first_name: "Bo", full_name: "Bo Diddley", birthday: "03-02", appointment_at: "2026-12-24T15:30:00.000Z", note: "Likes jazz", updated_at: later.toISOString() });
    expect((await memberValues(t.db, biz, m.id)).get(size)).toEqual({ value_text: "9.5", value_number: 9.5 });
    // another business's member id is not found
    const otherBiz = await createBusiness(t.db);
    expect(await code(updateMember(t.db, otherBiz, m.id, { firstName: "X", values: {} }, NOW))).toBe("BR001");
  });

  it("lists members by tab with counts, searches name, number and attribute values, pages newest first, per business", async () => {
    const biz = await createBusiness(t.db);
    const note = await createAttribute(t.db, biz, { name: "Dog", type: "TEXT", showOnForm: false, memberCanEdit: false, mandatory: false, items: [] }, NOW);
    const subs = [];
    for (let i = 0; i < PAGE_SIZE + 3; i++) subs.push(await insertMember(t.db, { businessId: biz, phone: ukMobile(), status: "SUBSCRIBED", fullName: `Sub ${i}`, now: NOW }));
    const pending = await insertMember(t.db, { businessId: biz, phone: "+447400123456", status: "PENDING", fullName: "Pat O'Hara", now: NOW });
    await insertMember(t.db, { businessId: biz, phone: ukMobile(), status: "OPTED_OUT", fullName: "Olly Out", now: NOW });
    const gone = await insertMember(t.db, { businessId: biz, phone: ukMobile(), status: "SUBSCRIBED", fullName: "Gone Person", now: NOW });
    await deleteMember(t.db, biz, gone.id, NOW);
    await updateMember(t.db, biz, subs[4].id, { values: { [note]: "Rex_the_dog" } }, NOW);
    const otherBiz = await createBusiness(t.db);
    await insertMember(t.db, { businessId: otherBiz, phone: ukMobile(), status: "SUBSCRIBED", fullName: "Sub elsewhere", now: NOW });

    const all = await listMembers(t.db, biz, { tab: "all" });
    expect(all.counts).toEqual({ all: PAGE_SIZE + 5, invited: 1, subscribed: PAGE_SIZE + 3 });
    expect(all.rows).toHaveLength(PAGE_SIZE);
    expect(all.pageCount).toBe(2);
    expect(all.rows[0].full_name).toBe("Olly Out");
    const page2 = await listMembers(t.db, biz, { tab: "all", page: 2 });
    expect(page2.rows.map((r) => r.full_name)).toEqual(["Sub 4", "Sub 3", "Sub 2", "Sub 1", "Sub 0"]);
    expect((await listMembers(t.db, biz, { tab: "all", page: 99 })).page).toBe(2);
    expect((await listMembers(t.db, biz, { tab: "invited" })).rows.map((r) => r.id)).toEqual([pending.id]);

    expect((await listMembers(t.db, biz, { tab: "all", q: "o'hara" })).rows.map((r) => r.id)).toEqual([pending.id]);
    expect((await listMembers(t.db, biz, { tab: "all", q: "07400 123456" })).rows.map((r) => r.id)).toEqual([pending.id]);
    expect((await listMembers(t.db, biz, { tab: "all", q: "+447400123" })).rows.map((r) => r.id)).toEqual([pending.id]);
    expect((await listMembers(t.db, biz, { tab: "all", q: "rex_THE_" })).rows.map((r) => r.id)).toEqual([subs[4].id]);
    // wildcards are literal, the other business is invisible, deleted members are gone
    expect((await listMembers(t.db, biz, { tab: "all", q: "_" })).total).toBe(1);
    expect((await listMembers(t.db, biz, { tab: "all", q: "elsewhere" })).total).toBe(0);
    expect((await listMembers(t.db, biz, { tab: "all", q: "Gone" })).total).toBe(0);
    const s = await listMembers(t.db, biz, { tab: "subscribed", q: "sub 2" });
    expect(s.counts).toEqual({ all: 9, invited: 0, subscribed: 9 }); // Sub 2, Sub 20..27
    expect(await listMembers(t.db, biz, { tab: "all", q: "'; DROP TABLE members; --" })).toMatchObject({ total: 0 });
  });

  it("the member's own form: join a pending invitation, edit allowed fields, unsubscribe; unknown refs are not found", async () => {
    const biz = await createBusiness(t.db, { name: "Bike Shop" });
    const club = await createAttribute(t.db, biz, { name: "Club", type: "TEXT", showOnForm: true, memberCanEdit: true, mandatory: false, items: [] }, NOW);
    const secret = await createAttribute(t.db, biz, { name: "Internal score", type: "NUMBER", showOnForm: false, memberCanEdit: false, mandatory: false, items: [] }, NOW);
    const shown = await createAttribute(t.db, biz, { name: "Tier", type: "TEXT", showOnForm: true, memberCanEdit: false, mandatory: false, items: [] }, NOW);
    const m = await inviteMember(t.db, biz, { phone: ukMobile(), values: { [secret]: "5", [shown]: "Gold" } }, NOW);
    expect(memberFormLink({ publicUrl: "https://app.example" }, m)).toBe(`https://app.example/myinfo/${m.unique_ref}`);
    const info = await myInfo(t.db, m.unique_ref);
    expect(info?.attributes.map((a) => a.name)).toEqual(["Club", "Tier"]);
    expect(await myInfo(t.db, "not-a-real-reference")).toBeNull();

    expect(await joinByRef(t.db, m.unique_ref, NOW)).toBe("JOINED");
    expect(await joinByRef(t.db, m.unique_ref, NOW)).toBe("ALREADY");
    // only editable attributes change; others sent by a crafted form are ignored
    await updateMyInfo(t.db, m.unique_ref, { firstName: "Kim", values: { [club]: "Road", [secret]: "99", [shown]: "Platinum" } }, NOW);
    const values = await memberValues(t.db, biz, m.id);
    expect(values.get(club)?.value_text).toBe("Road");
    expect(values.get(secret)?.value_text).toBe("5");
    expect(values.get(shown)?.value_text).toBe("Gold");
    expect(await code(updateMyInfo(t.db, m.unique_ref, { firstName: "<script>", values: {} }, NOW))).toBe("BR022");

    expect(await unsubscribeByRef(t.db, m.unique_ref, NOW)).toBe(true);
    const row = await t.db.selectFrom("members").select(["status"]).where("id", "=", m.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("OPTED_OUT");
    const log = (await memberDetail(t.db, biz, m.id)).consent.map((c) => [c.action, c.channel]);
    expect(log).toEqual([["OPT_IN_REQUESTED", "INVITE"], ["OPTED_IN", "WEB"], ["OPTED_OUT", "WEB"]]);
    const texts = (await textsTo(t.db, m.phone)).map((x) => x.body);
    expect(texts).toHaveLength(3);
    expect(texts[1]).toContain("Welcome to Bike Shop");
    expect(texts[2]).toContain("you have been unsubscribed");
    expect(await code(updateMyInfo(t.db, m.unique_ref, { firstName: "Kim", values: {} }, NOW))).toBe("BR039");
  });
});

describe.each(DIALECTS)("demo community seed (%s)", (dialect) => {
  const t = useTestDb(dialect);
  it("seeds a fresh database with a mix of members and two custom attributes, once", async () => {
    const { seedDemo, DEMO_MEMBERS } = await import("#db/seed");
    const { SEED_APP } = await import("../support/seed");
    expect(await seedDemo(t.db, NOW, SEED_APP)).not.toBeNull();
    const biz = await t.db.selectFrom("businesses").select("id").executeTakeFirstOrThrow();
    const list = await listMembers(t.db, Number(biz.id), { tab: "all" });
    expect(list.counts).toEqual({
      all: DEMO_MEMBERS.length,
      invited: DEMO_MEMBERS.filter((m) => m.status === "PENDING").length,
      subscribed: DEMO_MEMBERS.filter((m) => m.status === "SUBSCRIBED").length,
    });
    expect((await listAttributes(t.db, Number(biz.id))).map((a) => [a.name, a.items.length])).toEqual([["Favourite drink", 3], ["Visits this year", 0]]);
    expect((await listMembers(t.db, Number(biz.id), { tab: "all", q: "hot choc" })).rows.map((r) => r.first_name)).toEqual(["Isla"]);
    expect(await seedDemo(t.db, NOW, SEED_APP)).toBeNull();
    expect((await listMembers(t.db, Number(biz.id), { tab: "all" })).total).toBe(DEMO_MEMBERS.length);
  });
});
