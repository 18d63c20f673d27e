// Members list benchmark (npm run bench:members): seeds 100,000 members (with custom attribute values on a
// third of them) into a fresh SQLite database, then times the domain call behind /mycommunity
// (listMembers: three tab counts + one page) for the first page, a deep page, the subscribed tab and
// searches by name, number and attribute value. Prints median and p99 server time per case.
// Run with tsx (imports the app's TypeScript directly). MEMBERS=… and RUNS=… override the sizes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import SQLite from "better-sqlite3";
import { createDb } from "../db/index";
import { migrateToLatest } from "../db/migrator";
import { listMembers } from "../app/domain/members/community.server";

const MEMBERS = Number(process.env.MEMBERS ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 40);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tc-bench-members-"));
const file = path.join(dir, "bench.db");

const FIRST = ["Amelia", "Oliver", "Isla", "George", "Freya", "Harry", "Poppy", "Noah", "Ava", "Leo", "Mia", "Jack", "Ella", "Alfie", "Grace"];
const LAST = ["Hart", "Grant", "Brown", "Patel", "Jones", "Wilson", "Evans", "Clarke", "Khan", "Taylor", "Smith", "Walker", "Wright", "Hughes"];
const DRINKS = ["Flat white", "Tea", "Hot chocolate", "Latte", "Espresso"];

async function main() {
  const db = createDb(file);
  await migrateToLatest(db);
  const now = new Date().toISOString();
  const biz = await db
    .insertInto("businesses")
    .values({ name: "Bench Café", name_key: "bench café", phone_number: "+447700900999", onboarding: "COMPLETE", status: "TRIAL", trial_credits: 0, trial_ends_at: now, referral_code: "BENCH1", created_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  const businessId = Number(biz.id);
  const attr = await db
    .insertInto("attributes")
    .values({ business_id: businessId, key: "favouriteDrink", name: "Favourite drink", type: "TEXT", created_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.destroy();

  // Bulk load with one raw transaction (the app's own inserts are timed elsewhere).
  const t0 = performance.now();
  const raw = new SQLite(file);
  const insertMember = raw.prepare(
    "INSERT INTO members (business_id, phone, first_name, full_name, status, unique_ref, joined_at, invited_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertValue = raw.prepare("INSERT INTO member_attribute_values (member_id, attribute_id, business_id, value_text) VALUES (?, ?, ?, ?)");
  raw.transaction(() => {
    for (let i = 0; i < MEMBERS; i++) {
      const first = FIRST[i % FIRST.length];
      const full = `${first} ${LAST[(i * 7 + Math.floor(i / 15)) % LAST.length]}`;
      const status = i % 10 === 0 ? "PENDING" : i % 25 === 0 ? "OPTED_OUT" : "SUBSCRIBED";
      const phone = `+4474${String(10_000_000 + i).padStart(8, "0")}`;
      const r = insertMember.run(businessId, phone, first, full, status, crypto.randomBytes(16).toString("base64url"), now, now, now, now);
      if (i % 3 === 0) insertValue.run(Number(r.lastInsertRowid), Number(attr.id), businessId, DRINKS[i % DRINKS.length]);
    }
  })();
  raw.exec("ANALYZE");
  raw.close();
  const loadMs = performance.now() - t0;

  const app = createDb(file);
  const cases = [
    ["all, first page", { tab: "all" }],
    ["all, page 2,000 (deep)", { tab: "all", page: 2000 }],
    ["subscribed, first page", { tab: "subscribed" }],
    ["invited, first page", { tab: "invited" }],
    ["search name 'patel'", { tab: "all", q: "patel" }],
    ["search number '07410000123'", { tab: "all", q: "07410000123" }],
    ["search attribute value 'hot choc'", { tab: "all", q: "hot choc" }],
    ["search with no match", { tab: "all", q: "zzzzzz" }],
  ];
  const results = [];
  for (const [name, query] of cases) {
    await listMembers(app, businessId, query); // warm
    const times = [];
    let total = 0;
    for (let r = 0; r < RUNS; r++) {
      const s = performance.now();
      const out = await listMembers(app, businessId, query);
      times.push(performance.now() - s);
      total = out.total;
    }
    times.sort((a, b) => a - b);
    const pct = (p) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
    results.push({ case: name, matches: total, medianMs: +pct(50).toFixed(2), p99Ms: +pct(99).toFixed(2) });
  }
  await app.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`bench:members — ${MEMBERS.toLocaleString("en-GB")} members (SQLite, one business), ${RUNS} runs per case; bulk load ${(loadMs / 1000).toFixed(1)} s`);
  console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load average ${os.loadavg()[0].toFixed(2)}`);
  console.table(results);
}

main().catch((e) => {
  console.error(e);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});
