// After the e2e run: remove the temp dir holding the server's SQLite file (set up in playwright.config.ts).
import fs from "node:fs";
import os from "node:os";

export default async function teardown() {
  const dir = process.env.TC_E2E_DIR;
  if (dir && dir.startsWith(os.tmpdir()) && !process.env.TC_E2E_KEEP) fs.rmSync(dir, { recursive: true, force: true });
}
