// Once per test run: build the app the HTTP suites start, and check PostgreSQL is there.
// A failed build does not stop the unit suites: the HTTP suites report it when they try to start the app.
import type { TestProject } from "vitest/node";
import pg from "pg";
import { ensureBuild } from "../../scripts/ensure-build.mjs";
import { PG_URL } from "./db";

declare module "vitest" {
  export interface ProvidedContext {
    buildError: string;
  }
}

export default async function setup(project: TestProject) {
  let buildError = "";
  try {
    ensureBuild({ quiet: true });
  } catch (error) {
    buildError = (error as Error).message;
  }
  project.provide("buildError", buildError);
  const client = new pg.Client({ connectionString: PG_URL });
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    throw new Error(`PostgreSQL is required for the database suites (TEST_DATABASE_URL=${PG_URL}): ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
