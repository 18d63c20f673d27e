// Safe when exposed: the server listens on loopback unless HOST says otherwise, and the SMS simulator
// (which shows every simulated text, sign-up PINs included) is not served on an address other machines can
// reach unless SIMULATOR_PUBLIC=true.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../support/server";

async function simulatorAnswers(base: string) {
  const page = await fetch(`${base}/simulator`);
  const phones = await fetch(`${base}/simulator/api/phones/%2B447700900001/messages`);
  const inbound = await fetch(`${base}/simulator/api/inbound`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ from: "+447700900001", to: "+447700900002", body: "hello" }),
  });
  return { page: page.status, phones: phones.status, inbound: inbound.status };
}

describe("the simulator on a loopback address", () => {
  const t = useTestApp();

  it("is served", async () => {
    const a = await simulatorAnswers(t.app.url);
    expect(a.page).toBe(200);
    expect(a.phones).toBe(200);
    expect(a.inbound).not.toBe(404);
    expect(t.app.serverErrors).not.toContain("SIMULATOR_PUBLIC");
  });
});

describe("the simulator when HOST is reachable from other machines", () => {
  const t = useTestApp({ env: { HOST: "0.0.0.0" } });

  it("is not served, and the start-up log says why", async () => {
    expect(await simulatorAnswers(t.app.url)).toEqual({ page: 404, phones: 404, inbound: 404 });
    expect(t.app.serverErrors).toMatch(/simulator[\s\S]*not served[\s\S]*SIMULATOR_PUBLIC=true/);
  });

  it("still serves the rest of the app", async () => {
    expect((await fetch(`${t.app.url}/login`)).status).toBe(200);
  });
});

describe("the simulator when HOST is public and SIMULATOR_PUBLIC=true", () => {
  const t = useTestApp({ env: { HOST: "0.0.0.0", SIMULATOR_PUBLIC: "true" } });

  it("is served, with a warning", async () => {
    const a = await simulatorAnswers(t.app.url);
    expect(a.page).toBe(200);
    expect(a.phones).toBe(200);
    expect(t.app.serverErrors).toMatch(/SIMULATOR_PUBLIC=true: anyone/);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.on("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe("server.js", () => {
  it("listens on 127.0.0.1 by default, not on every interface", { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tc-host-"));
    const port = await freePort();
    const child = spawn(process.execPath, ["server.js"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(port), DATABASE_URL: path.join(dir, "app.db"), SESSION_SECRET: "s".repeat(40), SEED_DEMO: "false", RUN_WORKER: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => {
          out += d;
          if (/running at/.test(out)) resolve(out);
        });
        child.stderr.on("data", (d) => (err += d));
        child.on("exit", (code) => reject(new Error(`server.js exited with ${code}: ${err}`)));
      });
      expect(line).toContain("listening on 127.0.0.1");
      expect(await connects("127.0.0.1", port)).toBe(true);
      const outside = Object.values(os.networkInterfaces())
        .flat()
        .find((i) => i && i.family === "IPv4" && !i.internal);
      if (outside) expect(await connects(outside.address, port)).toBe(false);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
