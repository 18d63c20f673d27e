// A throwaway, migrated database for tests and benchmarks: a SQLite file in a temp folder, or a
// schema of its own on a PostgreSQL server (dropped again by dispose()).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDb, type Database, type Dialect } from "./index";
import { migrateToLatest } from "./migrator";

export interface ScratchDb {
  db: Database;
  dialect: Dialect;
  /** The SQLite file path or the PostgreSQL server URL. */
  url: string;
  /** The PostgreSQL schema, when on PostgreSQL. */
  schema?: string;
  dispose(): Promise<void>;
}

/** `pgUrl` set: a new schema on that server; otherwise a new SQLite file. */
export async function createScratchDb(options: { pgUrl?: string | null; prefix?: string; poolSize?: number } = {}): Promise<ScratchDb> {
  const prefix = options.prefix ?? "tc-";
  if (!options.pgUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const url = path.join(dir, "scratch.db");
    const db = createDb(url);
    await migrateToLatest(db);
    return {
      db,
      dialect: "sqlite",
      url,
      async dispose() {
        await db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const pgUrl = options.pgUrl;
  const schema = `${prefix.replace(/[^a-z0-9]/gi, "_").toLowerCase()}${crypto.randomBytes(6).toString("hex")}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA ${schema}`);
  const db = createDb(pgUrl, { schema, poolSize: options.poolSize ?? 4 });
  await migrateToLatest(db, { schema });
  return {
    db,
    dialect: "postgres",
    url: pgUrl,
    schema,
    async dispose() {
      await db.destroy();
      await run(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}
