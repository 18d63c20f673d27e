// `npm start` as a person (or a process manager) runs it: it serves on PORT, and a SIGTERM sent to npm
// itself, not to the server, frees the port within a few seconds.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe("npm start", () => {
  it("stops cleanly when npm itself is sent SIGTERM", { timeout: 240_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tc-start-"));
    const port = await freePort();
    const npm = spawn("npm", ["start"], {
      env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATABASE_URL: path.join(dir, "app.db"), SEED_DEMO: "false", RUN_WORKER: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    try {
      await new Promise<void>((resolve, reject) => {
        npm.stdout.on("data", (d) => {
          out += d;
          if (/running at/.test(out)) resolve();
        });
        npm.stderr.on("data", (d) => (out += d));
        npm.on("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
      });
      expect(await listening(port)).toBe(true);
      npm.kill("SIGTERM");
      const deadline = Date.now() + 5000;
      while ((await listening(port)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await listening(port), `port ${port} still held after SIGTERM to npm:\n${out}`).toBe(false);
    } finally {
      npm.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
