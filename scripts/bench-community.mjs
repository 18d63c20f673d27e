// Community benchmark (npm run bench:community): on a fresh SQLite database with 100,000 members (a
// custom NUMBER and a LIST attribute on every other member, birthdays on a third):
//  1. a smart group count with three conditions (birthday in month AND visits >= 5 AND list item is),
//     the same with OR, and resolving its recipients through memberIdsQuery — median and p99 over RUNS;
//  2. a 10,000-row CSV import (createImportJob + runImport: parse, validate, one batched transaction).
// Run with tsx (imports the app's TypeScript). MEMBERS=…, ROWS=…, RUNS=… override the sizes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import SQLite from "better-sqlite3";
import { createDb } from "../db/index";
import { migrateToLatest } from "../db/migrator";
import { countGroupMembers, createGroup, memberIdsQuery } from "../app/domain/groups/groups.server";
import { createImportJob, runImport } from "../app/domain/import/import.server";

const MEMBERS = Number(process.env.MEMBERS ?? 100_000);
const ROWS = Number(process.env.ROWS ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 30);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tc-bench-community-"));
const file = path.join(dir, "bench.db");

function stats(ms) {
  const s = [...ms].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p99: s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] };
}
const fmt = (n) => `${n.toFixed(1)} ms`;

async function main() {
  const db = createDb(file);
  await migrateToLatest(db);
  const now = new Date().toISOString();
  const biz = await db
    .insertInto("businesses")
    .values({ name: "Bench Bakery", name_key: "bench bakery", phone_number: "+447700900998", onboarding: "COMPLETE", status: "TRIAL", trial_credits: 0, trial_ends_at: now, referral_code: "BENCHC", created_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  const businessId = Number(biz.id);
  const visits = await db.insertInto("attributes").values({ business_id: businessId, key: "visits", name: "Visits", type: "NUMBER", created_at: now }).returning("id").executeTakeFirstOrThrow();
  const colour = await db.insertInto("attributes").values({ business_id: businessId, key: "colour", name: "Colour", type: "LIST", created_at: now }).returning("id").executeTakeFirstOrThrow();
  const items = [];
  for (const [i, label] of ["Red", "Blue", "Green"].entries()) {
    items.push(Number((await db.insertInto("attribute_list_items").values({ attribute_id: colour.id, label, position: i }).returning("id").executeTakeFirstOrThrow()).id));
  }
  await db.destroy();

  const raw = new SQLite(file);
  const insertMember = raw.prepare(
    "INSERT INTO members (business_id, phone, first_name, full_name, status, unique_ref, joined_at, birthday, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertValue = raw.prepare("INSERT INTO member_attribute_values (member_id, attribute_id, business_id, value_text, value_number) VALUES (?, ?, ?, ?, ?)");
  raw.transaction(() => {
    for (let i = 0; i < MEMBERS; i++) {
      const status = i % 10 === 0 ? "PENDING" : i % 25 === 0 ? "OPTED_OUT" : "SUBSCRIBED";
      const birthday = i % 3 === 0 ? `${String((Math.floor(i / 3) % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}` : null;
      const r = insertMember.run(businessId, `+4474${String(10_000_000 + i).padStart(8, "0")}`, `Member${i}`, `Member ${i}`, status, crypto.randomBytes(16).toString("base64url"), now, birthday, now, now);
      const id = Number(r.lastInsertRowid);
      if (i % 2 === 0) {
        insertValue.run(id, Number(visits.id), businessId, String(i % 20), i % 20);
        const item = items[i % 3];
        insertValue.run(id, Number(colour.id), businessId, ["Red", "Blue", "Green"][i % 3], item);
      }
    }
  })();
  raw.exec("ANALYZE");
  raw.close();

  const app = createDb(file);
  const conds = [
    { field: "birthday", op: "inMonth", value: "3" },
    { field: `attr:${visits.id}`, op: "gte", value: "5" },
    { field: `attr:${colour.id}`, op: "is", value: String(items[0]) },
  ];
  const andGroup = await createGroup(app, businessId, { name: "Bench AND", type: "SMART", filter: { match: "ALL", conditions: conds } }, new Date());
  const orGroup = await createGroup(app, businessId, { name: "Bench OR", type: "SMART", filter: { match: "ANY", conditions: conds } }, new Date());
  const results = {};
  for (const [name, fn] of [
    ["count, 3 conditions AND", () => countGroupMembers(app, businessId, andGroup)],
    ["count, 3 conditions OR", () => countGroupMembers(app, businessId, orGroup)],
    ["recipient ids, 3 conditions AND", async () => (await (await memberIdsQuery(app, businessId, andGroup)).execute()).length],
  ]) {
    const ms = [];
    let n = 0;
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      n = await fn();
      ms.push(performance.now() - t0);
    }
    results[name] = { n, ...stats(ms) };
  }

  // 10,000-row import (new numbers, a few invalid and duplicate rows for a realistic report).
  let csv = "Mobile,First name,Birthday,Visits\r\n";
  for (let i = 0; i < ROWS; i++) {
    const phone = i % 500 === 7 ? "12345" : `07500 ${String(100_000 + (i % 997 === 3 ? i - 1 : i)).padStart(6, "0")}`;
    csv += `${phone},Import${i},${(i % 28) + 1}/${(i % 12) + 1},${i % 30}\r\n`;
  }
  const bytes = new TextEncoder().encode(csv);
  const t0 = performance.now();
  const jobId = await createImportJob(app, { businessId, userId: null, filename: "bench.csv", bytes, now: new Date() });
  const t1 = performance.now();
  const job = await runImport(app, { businessId, jobId, mapping: ["phone", "firstName", "birthday", `attr:${visits.id}`], consent: true, now: new Date() });
  const t2 = performance.now();
  await app.destroy();
  fs.rmSync(dir, { recursive: true, force: true });

  console.log(`Community benchmark: ${MEMBERS.toLocaleString("en-GB")} members, SQLite, ${RUNS} runs each`);
  for (const [name, r] of Object.entries(results)) console.log(`  ${name.padEnd(34)} ${String(r.n).padStart(7)} members   median ${fmt(r.median)}   p99 ${fmt(r.p99)}`);
  console.log(`Import of ${ROWS.toLocaleString("en-GB")} rows (${(bytes.length / 1024).toFixed(0)} kB): upload+parse ${fmt(t1 - t0)}, run ${fmt(t2 - t1)}, total ${fmt(t2 - t0)}`);
  console.log(`  added ${job.added}, updated ${job.updated}, skipped ${job.skipped} (${job.report})`.slice(0, 300));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
