import { inspect } from "node:util";
import { Migrator, type Kysely, type MigrationProvider } from "kysely";
import { migrations } from "../migrations/index";

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws with the failing migration's name on error. */
export async function migrateToLatest(db: Kysely<any>, options: { schema?: string } = {}): Promise<string[]> {
  // With a PostgreSQL schema of its own (tests), Kysely's bookkeeping tables must live in it too:
  // its existence check would otherwise see another schema's tables and skip creating them.
  // Work in progress on several branches lands in any order: a migration may arrive after a later-named one ran.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, ...(options.schema ? { migrationTableSchema: options.schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : error === undefined ? "" : inspect(error);
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
