// `npm start`: build the app if the build is missing or stale, then serve it in production mode.
import { spawn } from "node:child_process";
import { ensureBuild } from "./ensure-build.mjs";

ensureBuild();
const child = spawn(process.execPath, ["server.js"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
