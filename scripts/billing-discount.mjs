// `npm run billing:discount -- BUSINESS_ID PERCENT [END_DATE]`: gives a business a company discount, a whole
// percentage off every invoice from now on (increases now, renewals from their period), until the end of
// END_DATE (YYYY-MM-DD, UK time) or with no end. PERCENT 0 removes it. Invoices already issued do not change.
// Uses the same configuration as the server (DATABASE_URL) and the app's TypeScript through tsx.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

const [businessArg, percentArg, endsOn] = process.argv.slice(2).filter((a) => !a.startsWith("-"));
if (!/^\d{1,12}$/.test(businessArg ?? "") || !/^\d{1,3}$/.test(percentArg ?? "") || (endsOn !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(endsOn))) {
  console.error("Usage: npm run billing:discount -- BUSINESS_ID PERCENT [END_DATE as YYYY-MM-DD]   (PERCENT 0 removes the discount)");
  process.exit(2);
}

const load = (p) => tsImport(path.join(root, p), { parentURL: import.meta.url, tsconfig: path.join(root, "tsconfig.json") });
const { loadConfig, ConfigError } = await load("app/lib/config.server.ts");
const { createDb } = await load("db/index.ts");
const { migrateToLatest } = await load("db/migrator.ts");
const { setCompanyDiscount } = await load("app/domain/billing/subscription.server.ts");

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const db = createDb(config.databaseUrl);
const messages = {
  PY006: "That business has no monthly plan yet: a company discount applies to a plan's invoices, so set it once the plan is active.",
  BR025: "The percentage must be a whole number from 0 to 100, and the end date a real day after today.",
};
try {
  await migrateToLatest(db);
  const business = await db.selectFrom("businesses").select(["id", "name"]).where("id", "=", Number(businessArg)).executeTakeFirst();
  if (!business) {
    console.error(`No business with id ${businessArg}.`);
    process.exitCode = 1;
  } else {
    const set = await setCompanyDiscount(db, business.id, { percent: Number(percentArg), endsOn: endsOn ?? null }, new Date());
    console.log(
      set.percent === 0
        ? `${business.name}: no company discount.`
        : `${business.name}: ${set.percent}% company discount ${set.endsAt ? `until ${set.endsAt}` : "with no end date"}, on every invoice from now on.`,
    );
  }
} catch (error) {
  // The app's refusals (AppError) carry a code; anything else is a real fault.
  if (typeof error?.code === "string" && /^[A-Z]{2}\d{3}$/.test(error.code)) {
    console.error(messages[error.code] ?? error.code);
    process.exitCode = 1;
  } else throw error;
} finally {
  await db.destroy();
}
