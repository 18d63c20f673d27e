// Test databases. Every repository and service suite runs on both SQLite and PostgreSQL:
//   describe.each(DIALECTS)("… (%s)", (dialect) => { const t = useTestDb(dialect); … })
// PostgreSQL comes from TEST_DATABASE_URL (default: the local server). A connection failure fails the
// suite: it never skips silently.
import { afterAll, beforeAll } from "vitest";
import type { Database, Dialect } from "#db/index";
import { createScratchDb, type ScratchDb } from "#db/scratch";

export const PG_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
export const DIALECTS: Dialect[] = ["sqlite", "postgres"];

export type TestDb = ScratchDb;

export function createTestDb(dialect: Dialect): Promise<TestDb> {
  return createScratchDb({ pgUrl: dialect === "postgres" ? PG_URL : null, prefix: "t_" });
}

/** A migrated database for the enclosing describe block, dropped afterwards. */
export function useTestDb(dialect: Dialect): { readonly db: Database; readonly testDb: TestDb } {
  let testDb: TestDb | undefined;
  beforeAll(async () => {
    testDb = await createTestDb(dialect);
  });
  afterAll(async () => {
    await testDb?.dispose();
  });
  return {
    get db() {
      if (!testDb) throw new Error("test database not ready");
      return testDb.db;
    },
    get testDb() {
      if (!testDb) throw new Error("test database not ready");
      return testDb;
    },
  };
}
