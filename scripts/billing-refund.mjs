// `npm run billing:refund -- INVOICE_NUMBER [AMOUNT_PENCE] [REASON…]`: refunds all (or AMOUNT_PENCE, including
// VAT) of a paid invoice to the card through the payment provider and issues its VAT credit note (CN-…), which
// the Administrator is emailed and finds on Payment history. Running the same command again after a failure
// finishes that refund; it never refunds twice.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

const [invoiceArg, amountArg, ...reasonWords] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (!/^(INV-)?\d{1,12}$/i.test(invoiceArg ?? "") || (amountArg !== undefined && !/^\d{1,9}$/.test(amountArg))) {
  console.error("Usage: npm run billing:refund -- INVOICE_NUMBER [AMOUNT_PENCE] [REASON]");
  process.exit(2);
}

const load = (p) => tsImport(path.join(root, p), { parentURL: import.meta.url, tsconfig: path.join(root, "tsconfig.json") });
const { loadConfig, ConfigError } = await load("app/lib/config.server.ts");
const { createDb } = await load("db/index.ts");
const { migrateToLatest } = await load("db/migrator.ts");
const { createPaymentProvider } = await load("app/providers/payments/index.server.ts");
const { refundInvoice, creditNoteLabel } = await load("app/domain/billing/credit-notes.server.ts");
const { parseInvoiceNumber } = await load("app/domain/billing/invoices.server.ts");

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const db = createDb(config.databaseUrl);
const now = () => new Date();
try {
  await migrateToLatest(db);
  const invoiceNumber = parseInvoiceNumber(invoiceArg);
  const amount = amountArg === undefined ? undefined : Number(amountArg);
  const reason = reasonWords.join(" ").trim() || "Refund";
  const note = await refundInvoice(
    db,
    createPaymentProvider(config, db, now),
    config.billing,
    { invoiceNumber, amountPence: amount, reason, idempotencyKey: `cli:${invoiceNumber}:${amount ?? "all"}:${reason}` },
    now(),
  );
  console.log(`Refunded ${(note.total_pence / 100).toFixed(2)} GBP: credit note ${creditNoteLabel(note.number)}.`);
} catch (error) {
  // The app's refusals (AppError) carry a code; anything else is a real fault.
  if (typeof error?.code === "string" && /^[A-Z]{2}\d{3}$/.test(error.code)) {
    const messages = { NF001: "No paid invoice with that number.", PY009: `That is more than is left to refund (${error.data?.left ?? 0} pence).`, PY007: "The payment service could not be reached or refused the refund; nothing was refunded. Try again later." };
    console.error(messages[error.code] ?? error.code);
    process.exitCode = 1;
  } else throw error;
} finally {
  await db.destroy();
}
