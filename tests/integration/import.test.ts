// Member CSV import on both databases: mapping, consent logged per member (IMPORT), report reasons
// (invalid number, duplicate in file, previously opted out never re-subscribed), formula injection
// sanitised, malformed files refused, a failure rolls back whole; export guards formulas.
import { describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { createImportJob, getImportJob, mappingView, reportOf, runImport } from "~/domain/import/import.server";
import { exportMembersCsv } from "~/domain/import/export.server";
import { csvCell, parseCsv } from "~/domain/import/csv";
import { appError } from "../support/errors";

const enc = (s: string) => new TextEncoder().encode(s);
const NOW = new Date("2026-06-15T12:00:00Z");

describe("csv", () => {
  it("parses quotes, doubled quotes, semicolons and CRLF; guards formulas on export", () => {
    expect(parseCsv('a,b\r\n"x, y","he said ""hi"""\r\n\r\n1,2')).toEqual([["a", "b"], ["x, y", 'he said "hi"'], ["1", "2"]]);
    expect(parseCsv("a;b\n1;2")).toEqual([["a", "b"], ["1", "2"]]);
    expect(csvCell("=HYPERLINK(\"http://x\")")).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("@SUM(1)")).toBe("\"'@SUM(1)\"");
    expect(csvCell("Ann")).toBe("Ann");
  });
});

describe.each(DIALECTS)("member import (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("imports with a report: added, updated, skipped for invalid number, duplicate and opted out; consent logged per member", async () => {
    const businessId = await createBusiness(t.db);
    const [existing] = await seedMembers(t.db, businessId, 1, { firstName: () => "Old" });
    const [optedOut] = await seedMembers(t.db, businessId, 1, { status: "OPTED_OUT" });
    const attr = await t.db.insertInto("attributes").values({ business_id: businessId, key: "visits", name: "Visits", type: "NUMBER", created_at: NOW.toISOString() }).returning("id").executeTakeFirstOrThrow();
    const national = (e164: string) => `0${e164.slice(3)}`;
    const csv = [
      "Mobile,First name,Birthday,Visits",
      "07400 111111,=HYPERLINK(\"http://evil\"),14/03,3",
      `${national(existing.phone)},Newname,,`,
      `${optedOut.phone},Back,,`,
      "12345,Bad,,",
      "+447400111111,Dupe,,",
      "07400 122222,Vis,,lots",
      "07400 133333,Plain,,",
    ].join("\r\n");
    const jobId = await createImportJob(t.db, { businessId, userId: null, filename: "m.csv", bytes: enc(csv), now: NOW });
    const job = await getImportJob(t.db, businessId, jobId);
    const view = await mappingView(t.db, businessId, job);
    expect(view.guesses).toEqual(["phone", "firstName", "birthday", `attr:${attr.id}`]);
    expect(view.preview[0][1]).toBe('HYPERLINK("http://evil")');
    expect((await appError(runImport(t.db, { businessId, jobId, mapping: view.guesses, consent: false, now: NOW }))).field).toBe("consent");
    const done = await runImport(t.db, { businessId, jobId, mapping: view.guesses, consent: true, now: NOW });
    expect([done.status, done.added, done.updated, done.skipped]).toEqual(["DONE", 2, 1, 4]);
    expect(reportOf(done).reasons).toEqual({ optedOut: 1, invalidNumber: 1, duplicate: 1, invalidValue: 1 });
    const m = await t.db.selectFrom("members").select(["id", "first_name", "birthday", "status"]).where("business_id", "=", businessId).where("phone", "=", "+447400111111").executeTakeFirstOrThrow();
    expect(m).toMatchObject({ first_name: 'HYPERLINK("http://evil")', birthday: "03-14", status: "SUBSCRIBED" });
    const v = await t.db.selectFrom("member_attribute_values").select("value_number").where("member_id", "=", m.id).executeTakeFirstOrThrow();
    expect(Number(v.value_number)).toBe(3);
    const still = await t.db.selectFrom("members").select(["status", "first_name"]).where("id", "=", optedOut.id).executeTakeFirstOrThrow();
    expect(still.status).toBe("OPTED_OUT");
    expect((await t.db.selectFrom("members").select("first_name").where("id", "=", existing.id).executeTakeFirstOrThrow()).first_name).toBe("Newname");
    const consent = await t.db.selectFrom("consent_log").select(["phone", "action", "channel"]).where("business_id", "=", businessId).where("channel", "=", "IMPORT").orderBy("phone").execute();
    expect(consent).toEqual([
      { phone: "+447400111111", action: "OPTED_IN", channel: "IMPORT" },
      { phone: "+447400133333", action: "OPTED_IN", channel: "IMPORT" },
    ]);
    // Running again (a double submission) changes nothing.
    const again = await runImport(t.db, { businessId, jobId, mapping: view.guesses, consent: true, now: NOW });
    expect(again.added).toBe(2);
    expect(await t.db.selectFrom("members").select("id").where("business_id", "=", businessId).execute()).toHaveLength(4);
  });

  it("refuses bad files clearly, keeps jobs to their business, and writes nothing when the mapping is refused", async () => {
    const businessId = await createBusiness(t.db);
    const other = await createBusiness(t.db);
    const reason = async (bytes: Uint8Array) => (await appError(createImportJob(t.db, { businessId, userId: null, filename: "x.csv", bytes, now: NOW }))).data?.reason;
    expect(await reason(new Uint8Array([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0xe9, 0x74, 0xe9]))).toBe("import.errors.encoding"); // Latin-1
    expect(await reason(enc('Mobile\n"07400 111111'))).toBe("import.errors.malformed");
    expect(await reason(enc(",,\n07400111111,,"))).toBe("import.errors.noHeader");
    expect(await reason(enc("Mobile\n"))).toBe("import.errors.noRows");
    expect(await reason(new Uint8Array(10 * 1024 * 1024 + 1))).toBe("import.errors.tooBig");
    const jobId = await createImportJob(t.db, { businessId, userId: null, filename: "m.csv", bytes: enc("Mobile,Name\n07400 144444,A\n07400 155555,B"), now: NOW });
    expect((await appError(getImportJob(t.db, other, jobId))).code).toBe("NF001");
    expect((await appError(runImport(t.db, { businessId: other, jobId, mapping: ["phone"], consent: true, now: NOW }))).code).toBe("NF001");
    expect((await appError(runImport(t.db, { businessId, jobId, mapping: ["", "firstName"], consent: true, now: NOW }))).data).toEqual({ attribute: "phone" });
    expect((await appError(runImport(t.db, { businessId, jobId, mapping: ["phone", "phone"], consent: true, now: NOW }))).code).toBe("BR025");
    // Another business's attribute is refused; nothing is written and the job can be mapped again.
    const foreign = await t.db.insertInto("attributes").values({ business_id: other, key: "x", name: "X", type: "TEXT", created_at: NOW.toISOString() }).returning("id").executeTakeFirstOrThrow();
    expect((await appError(runImport(t.db, { businessId, jobId, mapping: ["phone", `attr:${foreign.id}`], consent: true, now: NOW }))).code).toBe("BR025");
    expect(await t.db.selectFrom("members").select("id").where("business_id", "=", businessId).execute()).toHaveLength(0);
    expect((await getImportJob(t.db, businessId, jobId)).status).toBe("MAPPING");
  });

  it("exports members as CSV with formulas neutralised and custom attributes", async () => {
    const businessId = await createBusiness(t.db);
    const [a] = await seedMembers(t.db, businessId, 1, { firstName: () => "=cmd|' /C calc'!A0" });
    await seedMembers(t.db, businessId, 1, { status: "DELETED" });
    const attr = await t.db.insertInto("attributes").values({ business_id: businessId, key: "town", name: "Town", type: "TEXT", created_at: NOW.toISOString() }).returning("id").executeTakeFirstOrThrow();
    await t.db.insertInto("member_attribute_values").values({ business_id: businessId, member_id: a.id, attribute_id: attr.id, value_text: "+Leeds", value_number: null }).execute();
    let out = "";
    for await (const chunk of exportMembersCsv(t.db, businessId, { header: ["Mobile", "First name", "Full name", "Status", "Joined", "Birthday", "Note"] })) out += chunk;
    const rows = parseCsv(out.replace(/^\uFEFF/, ""));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(["Mobile", "First name", "Full name", "Status", "Joined", "Birthday", "Note", "Town"]);
    expect(rows[1][1]).toBe("'=cmd|' /C calc'!A0");
    expect(rows[1][7]).toBe("'+Leeds");
    expect(rows[1][3]).toBe("SUBSCRIBED");
  });
});
