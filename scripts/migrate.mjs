// `npm run db:migrate`: applies pending migrations to DATABASE_URL (SQLite file or PostgreSQL) and exits.
// The app also migrates at start-up; this is for deploys that migrate before starting many processes.
import { ensureBuild } from "./ensure-build.mjs";

ensureBuild({ quiet: true });
const mod = await import(new URL("../build/server/index.js", import.meta.url).href);
try {
  const applied = await mod.migrateOnly(process.env);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date.");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
