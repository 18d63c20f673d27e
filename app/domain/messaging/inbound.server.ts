// Inbound texts, part 1: the raw text a phone sent to a business number, stored once per provider
// message id (a replayed webhook changes nothing). Finding the member, keywords (STOP, START, HELP, the
// join keyword) and conversations are built on these rows by the inbound pipeline.
import { sql, type Selectable } from "kysely";
import type { InboundMessagesTable } from "#db/types";
import { isPostgresDb, type Database } from "#db/index";

export interface InboundInput {
  /** The provider's message id (Twilio's MessageSid). */
  providerId: string;
  /** The phone that sent the text, E.164. */
  from: string;
  /** The business number it was sent to, E.164. */
  to: string;
  body: string;
  receivedAt: Date;
}

/** A stored inbound text as the webhooks see it (the pipeline's own columns left out). */
export type InboundRow = Pick<Selectable<InboundMessagesTable>, "id" | "business_id" | "provider_id" | "from_number" | "to_number" | "body" | "received_at" | "processed_at">;

export type InboundResult =
  | { outcome: "stored"; message: InboundRow }
  | { outcome: "duplicate"; message: InboundRow }
  | { outcome: "unknown-number" };

/** The business that owns a number, if any. */
export async function businessForNumber(db: Database, number: string): Promise<number | null> {
  const row = await db.selectFrom("businesses").select("id").where("phone_number", "=", number).executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Records a text received on a business number. "unknown-number" when no business owns `to`
 * (nothing stored); "duplicate" when this provider id was already recorded (nothing changed).
 *
 * Webhooks arriving together are stored together: texts that arrive within the same turn of the event
 * loop share one transaction (group commit), so a burst costs one commit instead of one per text. Each
 * caller still gets its answer only after its row is committed, so an acknowledged text is never lost.
 */
export function receiveInbound(deps: { db: Database }, input: InboundInput): Promise<InboundResult> {
  let batcher = batchers.get(deps.db);
  if (!batcher) {
    batcher = new InboundBatcher(deps.db);
    batchers.set(deps.db, batcher);
  }
  return batcher.add(input);
}

const MAX_BATCH = 200;
const batchers = new WeakMap<Database, InboundBatcher>();

class InboundBatcher {
  private queue: Array<{ input: InboundInput; resolve: (r: InboundResult) => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;
  constructor(private readonly db: Database) {}

  add(input: InboundInput): Promise<InboundResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue.splice(0, MAX_BATCH);
    if (this.queue.length) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
    if (batch.length === 1) {
      const [one] = batch;
      return storeOne(this.db, one.input).then(one.resolve, one.reject);
    }
    let stored: Array<InboundRow | undefined>;
    try {
      stored = isPostgresDb(this.db)
        ? await insertManyIfKnown(this.db, batch.map((b) => b.input))
        : await this.db.transaction().execute(async (trx) => {
            const rows: Array<InboundRow | undefined> = [];
            for (const item of batch) rows.push(await insertIfKnown(trx, item.input));
            return rows;
          });
    } catch {
      // One bad row must not fail the others: store them one by one instead.
      for (const item of batch) await storeOne(this.db, item.input).then(item.resolve, item.reject);
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const row = stored[i];
      if (row) batch[i].resolve({ outcome: "stored", message: row });
      else await explainNotStored(this.db, batch[i].input).then(batch[i].resolve, batch[i].reject);
    }
  }
}

/** Finds the business by its number and stores the text in one statement; nothing when the number is unknown or the id is a duplicate. */
async function insertIfKnown(db: Database, input: InboundInput): Promise<InboundRow | undefined> {
  const row = await db
    .insertInto("inbound_messages")
    .columns(["business_id", "provider_id", "from_number", "to_number", "body", "received_at", "processed_at"])
    .expression(
      db
        .selectFrom("businesses")
        .select((eb) => [
          "businesses.id",
          eb.val(input.providerId).as("provider_id"),
          eb.val(input.from).as("from_number"),
          eb.val(input.to).as("to_number"),
          eb.val(input.body).as("body"),
          eb.val(input.receivedAt.toISOString()).as("received_at"),
          eb.val(null).as("processed_at"),
        ])
        .where("businesses.phone_number", "=", input.to),
    )
    .onConflict((oc) => oc.column("provider_id").doNothing())
    .returningAll()
    .executeTakeFirst();
  return row as InboundRow | undefined;
}

/**
 * PostgreSQL: the whole batch in one INSERT … SELECT over a VALUES list (one round trip instead of one
 * per text). Returns, per input, its new row, or undefined when it was not stored (unknown number,
 * a provider id already recorded, or a repeat of an earlier input in the same batch).
 */
async function insertManyIfKnown(db: Database, inputs: InboundInput[]): Promise<Array<InboundRow | undefined>> {
  const firstIndex = new Map<string, number>();
  inputs.forEach((input, i) => {
    if (!firstIndex.has(input.providerId)) firstIndex.set(input.providerId, i);
  });
  const unique = [...firstIndex.values()].map((i) => inputs[i]);
  const values = sql.join(unique.map((i) => sql`(${i.providerId}, ${i.from}, ${i.to}, ${i.body}, ${i.receivedAt.toISOString()})`));
  const { rows } = await sql<InboundRow>`
    insert into inbound_messages (business_id, provider_id, from_number, to_number, body, received_at, processed_at)
    select b.id, v.provider_id, v.from_number, v.to_number, v.body, v.received_at, null
    from (values ${values}) as v (provider_id, from_number, to_number, body, received_at)
    join businesses as b on b.phone_number = v.to_number
    on conflict (provider_id) do nothing
    returning *`.execute(db);
  const byProviderId = new Map(rows.map((r) => [r.provider_id, r]));
  return inputs.map((input, i) => (firstIndex.get(input.providerId) === i ? byProviderId.get(input.providerId) : undefined));
}

async function storeOne(db: Database, input: InboundInput): Promise<InboundResult> {
  const row = await insertIfKnown(db, input);
  return row ? { outcome: "stored", message: row } : explainNotStored(db, input);
}

async function explainNotStored(db: Database, input: InboundInput): Promise<InboundResult> {
  if ((await businessForNumber(db, input.to)) === null) return { outcome: "unknown-number" };
  const existing = await db.selectFrom("inbound_messages").selectAll().where("provider_id", "=", input.providerId).executeTakeFirstOrThrow();
  return { outcome: "duplicate", message: existing };
}

/** Inbound texts not yet handled by the inbound pipeline, oldest first. */
export async function unprocessedInbound(db: Database, limit = 100): Promise<InboundRow[]> {
  return db.selectFrom("inbound_messages").selectAll().where("processed_at", "is", null).orderBy("id").limit(limit).execute();
}

/** Marks an inbound text handled; false when it already was (another worker got there first). */
export async function markInboundProcessed(db: Database, id: number, now: Date): Promise<boolean> {
  const r = await db.updateTable("inbound_messages").set({ processed_at: now.toISOString() }).where("id", "=", id).where("processed_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
