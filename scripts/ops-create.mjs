// `npm run ops:create -- EMAIL [NAME]`: creates an operator of the console at /ops and prints a one-time
// password, which the operator must replace at their first sign-in. Run again for an existing operator to
// give them a new one-time password (their console sessions end). Uses the same configuration as the
// server (DATABASE_URL, PUBLIC_URL, PORT) and the app's TypeScript through tsx.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

const [email, ...nameParts] = process.argv.slice(2).filter((a) => !a.startsWith("-"));
if (!email) {
  console.error("Usage: npm run ops:create -- <email of the operator> [name]");
  process.exit(2);
}

const load = (p) => tsImport(path.join(root, p), { parentURL: import.meta.url, tsconfig: path.join(root, "tsconfig.json") });
const { loadConfig, ConfigError } = await load("app/lib/config.server.ts");
const { createDb } = await load("db/index.ts");
const { migrateToLatest } = await load("db/migrator.ts");
const { createOperator } = await load("app/domain/ops/operators.server.ts");

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
  const result = await createOperator(db, { email, name: nameParts.join(" ") || undefined }, new Date());
  console.log(result.password);
  console.error(
    `${result.created ? "Operator created" : "New one-time password for the existing operator"}: ${email.trim().toLowerCase()}. ` +
      `Sign in at ${config.publicUrl}/ops/login with the password above; it must be changed at the first sign-in.`,
  );
} catch (error) {
  console.error(error?.code === "BR025" ? `Not an email address: ${email}` : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
