// Member import from CSV: upload (≤ 10 MB, UTF-8) -> a job row holding the file (MAPPING); map
// columns to attributes and confirm the business holds consent (QUEUED); run: every row in ONE
// transaction, batched (a failed import rolls back whole, never half-finished), then a report of rows
// added, updated and skipped with the reason (invalid number, duplicate in the file, previously
// opted out — import never re-subscribes anyone who opted out). Consent is logged per member, IMPORT.
import type { Kysely } from "kysely";
import type { Selectable } from "kysely";
import type { DB, ImportJobsTable } from "#db/types";
import { subscribeImported } from "~/domain/consent/consent.server";
import { parseAttributeValue, parseBirthday, type AttributeWithItems, listAttributes } from "~/domain/members/attributes.server";
import { AppError } from "~/lib/errors";
import { parseUkMobile } from "~/lib/phone";
import { CsvError, decodeCsv, parseCsv, sanitiseCell } from "./csv";

type Db = Kysely<DB>;
export type ImportJob = Selectable<ImportJobsTable>;

/** What a column can become. */
export const DEFAULT_TARGETS = ["phone", "firstName", "fullName", "birthday", "note"] as const;
const BATCH = 500;
const REPORT_MAX = 200;

export type SkipReason = "invalidNumber" | "duplicate" | "optedOut" | "invalidValue" | "missingNumber";
export interface ImportReport {
  skippedRows: { row: number; reason: SkipReason; detail?: string }[];
  reasons: Partial<Record<SkipReason, number>>;
}

const GUESS: Record<string, string> = {
  phone: "phone", mobile: "phone", "mobile number": "phone", "phone number": "phone", number: "phone", telephone: "phone", tel: "phone", portable: "phone",
  "first name": "firstName", firstname: "firstName", forename: "firstName", "given name": "firstName", prénom: "firstName", prenom: "firstName",
  name: "fullName", "full name": "fullName", fullname: "fullName", nom: "fullName", "nom complet": "fullName",
  birthday: "birthday", "date of birth": "birthday", dob: "birthday", anniversaire: "birthday",
  note: "note", notes: "note", comment: "note", comments: "note",
};

function norm(h: string): string {
  return h.toLowerCase().replace(/[_\-.]+/g, " ").replace(/\s+/g, " ").trim();
}

/** Upload: decode and parse (clear errors for bad files), store the job. Returns its id. */
export async function createImportJob(db: Db, input: { businessId: number; userId: number | null; filename: string; bytes: Uint8Array; now: Date }): Promise<number> {
  let rows: string[][];
  try {
    rows = parseCsv(decodeCsv(input.bytes));
  } catch (e) {
    if (e instanceof CsvError) throw new AppError("BR025", { reason: e.key }, { field: "file" });
    throw e;
  }
  const header = rows[0]?.map((h) => sanitiseCell(h).slice(0, 60)) ?? [];
  if (!header.length || header.every((h) => !h)) throw new AppError("BR025", { reason: "import.errors.noHeader" }, { field: "file" });
  if (rows.length < 2) throw new AppError("BR025", { reason: "import.errors.noRows" }, { field: "file" });
  const at = input.now.toISOString();
  const job = await db
    .insertInto("import_jobs")
    .values({
      business_id: input.businessId,
      created_by: input.userId,
      status: "MAPPING",
      filename: sanitiseCell(input.filename).slice(0, 100) || "members.csv",
      content: JSON.stringify(rows),
      total_rows: rows.length - 1,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(job.id);
}

export async function getImportJob(db: Db, businessId: number, jobId: number): Promise<ImportJob> {
  if (!Number.isSafeInteger(jobId) || jobId <= 0) throw new AppError("NF001", undefined, { status: 404 });
  const job = await db.selectFrom("import_jobs").selectAll().where("business_id", "=", businessId).where("id", "=", jobId).executeTakeFirst();
  if (!job) throw new AppError("NF001", undefined, { status: 404 });
  return job;
}

export interface MappingView {
  header: string[];
  preview: string[][];
  guesses: string[];
  targets: { value: string; label: string; custom: boolean }[];
}

/** The header, the first rows (sanitised for display) and a guessed target per column. */
export async function mappingView(db: Db, businessId: number, job: ImportJob): Promise<MappingView> {
  const rows = JSON.parse(job.content || "[]") as string[][];
  const header = (rows[0] ?? []).map((h) => sanitiseCell(h).slice(0, 60));
  const attrs = await listAttributes(db, businessId);
  const targets = [
    ...DEFAULT_TARGETS.map((t) => ({ value: t, label: t, custom: false })),
    ...attrs.map((a) => ({ value: `attr:${a.id}`, label: a.name, custom: true })),
  ];
  const byName = new Map(attrs.map((a) => [norm(a.name), `attr:${a.id}`]));
  const used = new Set<string>();
  const guesses = header.map((h) => {
    const g = GUESS[norm(h)] ?? byName.get(norm(h)) ?? "";
    if (!g || used.has(g)) return "";
    used.add(g);
    return g;
  });
  return { header, preview: rows.slice(1, 6).map((r) => header.map((_, i) => sanitiseCell(r[i] ?? "").slice(0, 60))), guesses, targets };
}

interface Prepared {
  phone: string;
  row: number;
  firstName?: string;
  fullName?: string;
  birthday?: string;
  note?: string;
  custom: Map<number, { value_text: string; value_number: number | null }>;
}

/**
 * Confirm and run the import in one transaction. `mapping[i]` is the target of column i ("" = skip).
 * Exactly one column must be the phone; consent must be confirmed (consent is recorded per member).
 */
export async function runImport(db: Db, input: { businessId: number; jobId: number; mapping: string[]; consent: boolean; now: Date }): Promise<ImportJob> {
  const job = await getImportJob(db, input.businessId, input.jobId);
  if (job.status !== "MAPPING") return job; // already run (a double submission)
  if (!input.consent) throw new AppError("BR049", { attribute: "consent" }, { field: "consent" });
  const rows = JSON.parse(job.content) as string[][];
  const width = rows[0]?.length ?? 0;
  const mapping = input.mapping.slice(0, width).map((m) => (typeof m === "string" ? m.slice(0, 30) : ""));
  const attrs = await listAttributes(db, input.businessId);
  const attrById = new Map<number, AttributeWithItems>(attrs.map((a) => [a.id, a]));
  const seenTargets = new Set<string>();
  for (const m of mapping) {
    if (!m) continue;
    const ok = (DEFAULT_TARGETS as readonly string[]).includes(m) || (/^attr:\d{1,15}$/.test(m) && attrById.has(Number(m.slice(5))));
    if (!ok || seenTargets.has(m)) throw new AppError("BR025", { reason: "import.errors.mapping" }, { field: "mapping" });
    seenTargets.add(m);
  }
  if (!seenTargets.has("phone")) throw new AppError("BR049", { attribute: "phone" }, { field: "mapping" });

  const report: ImportReport = { skippedRows: [], reasons: {} };
  const skip = (row: number, reason: SkipReason, detail?: string) => {
    report.reasons[reason] = (report.reasons[reason] ?? 0) + 1;
    if (report.skippedRows.length < REPORT_MAX) report.skippedRows.push({ row, reason, ...(detail ? { detail } : {}) });
  };

  // 1. Validate every row in memory (no database work yet).
  const prepared: Prepared[] = [];
  const inFile = new Set<string>();
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r];
    const rowNo = r + 1; // as a spreadsheet numbers it, header = 1
    let p: Prepared | null = { phone: "", row: rowNo, custom: new Map() };
    for (let c = 0; c < mapping.length && p; c++) {
      const target = mapping[c];
      if (!target) continue;
      const raw = cells[c] ?? "";
      if (target === "phone") {
        // A spreadsheet's text marker (') before the number is not part of it.
        const cleaned = raw.trim().replace(/^'+/, "");
        if (!cleaned) {
          skip(rowNo, "missingNumber");
          p = null;
          break;
        }
        const phone = parseUkMobile(cleaned.slice(0, 25));
        if (!phone) {
          skip(rowNo, "invalidNumber");
          p = null;
          break;
        }
        p.phone = phone;
        continue;
      }
      const v = sanitiseCell(raw);
      if (!v) continue;
      if (target === "firstName" || target === "fullName") {
        p[target] = v.slice(0, 40);
      } else if (target === "note") {
        p.note = v.slice(0, 5000);
      } else if (target === "birthday") {
        const b = parseBirthday(v);
        if (!b) {
          skip(rowNo, "invalidValue", rows[0][c]?.slice(0, 40));
          p = null;
        } else p.birthday = b;
      } else {
        const attr = attrById.get(Number(target.slice(5)))!;
        try {
          const stored = parseAttributeValue(attr, v, target);
          if (stored) p.custom.set(attr.id, stored);
        } catch {
          skip(rowNo, "invalidValue", sanitiseCell(rows[0][c] ?? "").slice(0, 40));
          p = null;
        }
      }
    }
    if (!p) continue;
    if (inFile.has(p.phone)) {
      skip(rowNo, "duplicate");
      continue;
    }
    inFile.add(p.phone);
    prepared.push(p);
  }

  // 2. Write in one transaction, in batches.
  const at = input.now.toISOString();
  const evidence = `CSV import #${job.id} (${job.filename}): the business confirmed it holds consent`;
  let added = 0;
  let updated = 0;
  await db.transaction().execute(async (trx) => {
    const claimed = await trx.updateTable("import_jobs").set({ status: "RUNNING", updated_at: at }).where("id", "=", job.id).where("status", "=", "MAPPING").executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError("BR025");
    for (let i = 0; i < prepared.length; i += BATCH) {
      const batch = prepared.slice(i, i + BATCH);
      const phones = batch.map((p) => p.phone);
      const existing = new Map(
        (await trx.selectFrom("members").select(["id", "phone", "status"]).where("business_id", "=", input.businessId).where("phone", "in", phones).execute()).map((m) => [m.phone, m]),
      );
      // Subscribing goes through the consent service, which never subscribes a number that objected.
      const result = await subscribeImported(
        trx,
        input.businessId,
        batch.map((p) => ({ phone: p.phone, existing: existing.get(p.phone) ?? null, columns: { first_name: p.firstName, full_name: p.fullName, birthday: p.birthday, note: p.note } })),
        evidence,
        input.now,
      );
      added += result.added;
      updated += result.updated;
      const valueRows: { member_id: number; attribute_id: number; business_id: number; value_text: string; value_number: number | null }[] = [];
      const touched: number[] = [];
      for (const p of batch) {
        if (result.objected.has(p.phone)) {
          skip(p.row, "optedOut");
          continue;
        }
        const id = result.ids.get(p.phone);
        if (id === undefined) continue;
        for (const [attribute_id, v] of p.custom) valueRows.push({ member_id: id, attribute_id, business_id: input.businessId, ...v });
        if (p.custom.size && existing.has(p.phone)) touched.push(id);
      }
      if (touched.length) {
        const attrIds = [...new Set(valueRows.map((v) => v.attribute_id))];
        await trx.deleteFrom("member_attribute_values").where("member_id", "in", touched).where("attribute_id", "in", attrIds).execute();
      }
      if (valueRows.length) await trx.insertInto("member_attribute_values").values(valueRows).execute();
    }
    const skipped = Object.values(report.reasons).reduce((a, b) => a + (b ?? 0), 0);
    await trx
      .updateTable("import_jobs")
      .set({
        status: "DONE",
        mapping: JSON.stringify(mapping),
        consent_evidence: evidence,
        processed_rows: rows.length - 1,
        added,
        updated,
        skipped,
        report: JSON.stringify(report),
        content: "", // the file is not kept once imported
        updated_at: at,
        finished_at: at,
      })
      .where("id", "=", job.id)
      .execute();
  });
  return getImportJob(db, input.businessId, job.id);
}

export function reportOf(job: ImportJob): ImportReport {
  try {
    return job.report ? (JSON.parse(job.report) as ImportReport) : { skippedRows: [], reasons: {} };
  } catch {
    return { skippedRows: [], reasons: {} };
  }
}
