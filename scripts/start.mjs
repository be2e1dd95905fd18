#!/usr/bin/env node
// Starts Insika: `insika prepare` (migrate, token, seed, config), then the server (scripts/serve.mjs).
// With --demo: the embedded default for a first run — demo seed, and an egress
// posture relaxed just enough to reach the demo backend on this server's own port.
import { spawn, spawnSync } from "node:child_process";
import { serverNodeFlags } from "./server-node-flags.mjs";

const demo = process.argv.includes("--demo");
const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "127.0.0.1";
const env = { ...process.env, PORT: port, HOST: host, NEXT_TELEMETRY_DISABLED: "1" };

if (demo) {
  env.INSIKA_DEMO = "1";
  env.INSIKA_EGRESS_ALLOW_HTTP ??= "1";
  env.INSIKA_EGRESS_HOSTS ??= `127.0.0.1:${port}`;
  console.log(
    `Demo mode: egress relaxed to http://127.0.0.1:${port} only (INSIKA_EGRESS_HOSTS, INSIKA_EGRESS_ALLOW_HTTP).`,
  );
}

const tsx = "node_modules/tsx/dist/cli.mjs";
const prepared = spawnSync(process.execPath, [tsx, "cli/insika.ts", "prepare"], { stdio: "inherit", env });
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

const server = spawn(process.execPath, [...serverNodeFlags(env.NODE_OPTIONS), "scripts/serve.mjs"], {
  stdio: "inherit",
  env,
});
console.log(`Insika Studio: http://${host}:${port}  (sign in with the token above, or: npm run insika -- token)`);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
