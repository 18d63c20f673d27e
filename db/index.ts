// The Kysely factory: SQLite (better-sqlite3, WAL, foreign keys on) by default, PostgreSQL when the
// URL says postgres://. Everything else in the app sees only `Kysely<DB>`.
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type SqliteDialectConfig } from "kysely";
import type { DB } from "./types";

export type Database = Kysely<DB>;
export type Dialect = "sqlite" | "postgres";

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//i.test(url) ? "postgres" : "sqlite";
}

// int8 (bigint ids, counts) arrive from pg as strings; ours always fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

export interface CreateDbOptions {
  /** PostgreSQL schema to use (tests isolate themselves in their own schema). */
  schema?: string;
  poolSize?: number;
}

export function createDb(url: string, options: CreateDbOptions = {}): Database {
  if (dialectOf(url) === "postgres") {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    });
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = url.replace(/^sqlite:(\/\/)?/i, "");
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  cacheStatements(sqlite);
  // 32 MB page cache (the default is 2 MB): bulk sends touch many index pages per batch.
  sqlite.pragma("cache_size = -32768");
  return new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
}

/**
 * SQLite transactions begin IMMEDIATE: the write lock is taken (waiting up to busy_timeout) before the first read.
 * A deferred transaction that reads and then writes fails at once with "database is locked" if another process
 * (a worker, a second web process) wrote in between, because its snapshot can no longer be upgraded; with several
 * processes on one file that would be an owner's form post failing for nothing.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly sqliteConfig: SqliteDialectConfig) {
    super(sqliteConfig);
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.sqliteConfig);
  }
}

/**
 * Kysely prepares a statement for every query; preparing is a measurable share of a small query's cost
 * on SQLite. Keep prepared statements by SQL text (a bounded map, cleared when full). Safe because
 * better-sqlite3 runs each statement to completion synchronously before another can use it.
 */
function cacheStatements(sqlite: SQLite.Database, max = 1000): void {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = prepare(source);
      if (cache.size >= max) cache.clear();
      cache.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
}

export function isPostgresDb(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The schema named by `options=-c search_path=…` in a PostgreSQL URL, if any. */
export function pgSchemaOf(url: string): string | undefined {
  if (dialectOf(url) !== "postgres") return undefined;
  try {
    const options = new URL(url).searchParams.get("options") ?? "";
    return /search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options)?.[1];
  } catch {
    return undefined;
  }
}
