// `npm run admin:access -- owner@demo.textcircle.test`: prints a single-use admin-access link (valid
// for 10 minutes) that signs a Textcircle administrator in as that customer. Uses the same
// configuration as the server (DATABASE_URL, PUBLIC_URL, PORT) and the app's TypeScript through tsx.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

const email = process.argv.slice(2).find((a) => !a.startsWith("-"));
if (!email) {
  console.error("Usage: npm run admin:access -- <email of the user to sign in as>");
  process.exit(2);
}

const load = (p) => tsImport(path.join(root, p), { parentURL: import.meta.url, tsconfig: path.join(root, "tsconfig.json") });
const { loadConfig, ConfigError } = await load("app/lib/config.server.ts");
const { createDb } = await load("db/index.ts");
const { migrateToLatest } = await load("db/migrator.ts");
const { createAdminAccessToken, ADMIN_ACCESS_MINUTES } = await load("app/domain/accounts/admin-access.server.ts");

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const db = createDb(config.databaseUrl);
try {
  await migrateToLatest(db);
  const created = await createAdminAccessToken(db, email, new Date());
  if (!created) {
    console.error(`No enabled user with the email address ${email}.`);
    process.exitCode = 1;
  } else {
    console.log(`${config.publicUrl}/adminaccess/${created.token}`);
    console.error(`Single use; expires in ${ADMIN_ACCESS_MINUTES} minutes (${created.expiresAt.toISOString()}).`);
  }
} finally {
  await db.destroy();
}
