/**
 * What the benches share: the loopback backend (the tests' fixture, in its own
 * process), the environment the services read, a fresh on-disk database, the
 * bench's data tool, and a scripted agent to run turns with.
 */
import { execSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Agent, request } from "undici";
import { openDb, type Db } from "@/db/client";
import type { SqliteDatabase } from "@/db/sqlite-database";
import { putAgent } from "@/lib/services/agents/agents";
import { putTool } from "@/lib/services/tools/tools";
import type { ScriptedPart } from "@/lib/providers/scripted";
import { tempDir } from "../test/support/temp-dir";
import { operatorPrincipal } from "@/lib/access/principal";
import { benchScriptPath } from "./bench-script";
import { say } from "./harness";

const OPERATOR = operatorPrincipal("api");

/** Node flags for a child process: this one's (the tsx loader, when the sources run), minus profiling. */
export const childExecArgv = () => process.execArgv.filter((a) => !a.startsWith("--cpu-prof"));

export interface BackendProcess {
  url: string;
  port: number;
  stop(): void;
}

/**
 * Starts a bench process (bench script `script`, which prints `{"port": N}` once listening and
 * exits when its stdin ends, i.e. when this process goes away) and waits for its port.
 */
export async function startBenchProcess(script: string, args: string[] = []): Promise<BackendProcess> {
  const child = spawn(process.execPath, [...childExecArgv(), benchScriptPath(script), ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`bench process ${script} exited (${code})`)));
  });
  const { port } = JSON.parse(first) as { port: number };
  return { url: `http://127.0.0.1:${port}`, port, stop: () => void child.kill("SIGKILL") };
}

/** Starts bench/backend-process.ts and waits for its port. */
export const startBackendProcess = () => startBenchProcess("backend-process");

/**
 * The environment the services parse once (lib/env, the egress posture): call it
 * before anything reads them. Egress as an operator would open one backend: http
 * allowed, and only that host:port listed.
 */
export function benchEnv(backendPort: number, extra: Record<string, string> = {}): void {
  Object.assign(process.env, {
    INSIKA_LOG_LEVEL: "error",
    INSIKA_EGRESS_ALLOW_HTTP: "1",
    INSIKA_EGRESS_HOSTS: `127.0.0.1:${backendPort}`,
    ...extra,
  });
}

/** Waits for a build someone else is running (bounded), else builds; `bench` names the caller in what it prints. */
export async function ensureBuild(bench: string): Promise<void> {
  for (let waited = 0; !fs.existsSync(".next/BUILD_ID") && fs.existsSync(".next/lock") && waited < 300; waited += 2) {
    if (waited === 0) say(`${bench}: a build is in progress, waiting for it (at most 5 min)`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  if (fs.existsSync(".next/BUILD_ID")) return;
  say(`${bench}: no build found, running \`npm run build\` first`);
  execSync("npm run build", { stdio: "inherit" });
}

/** A fresh database file (WAL, synchronous=NORMAL, migrated, WAL checkpointed on a worker), as the server opens it; removed at exit. */
export function freshDb(): SqliteDatabase {
  return openDb(path.join(tempDir("insika-bench-"), "insika.db"), { backgroundCheckpoint: true });
}

/** The bench's data tool: path, query and header placeholders (one from ctx), json_path extraction. */
export function itemTool(backendUrl: string, name = "lookup_item", route = "/items") {
  return {
    name,
    description: "Look up an item of the store by id",
    parameters: {
      type: "object",
      properties: { id: { type: "string", description: "The item id" } },
      required: ["id"],
    },
    request: {
      method: "GET",
      url: `${backendUrl}${route}`,
      query: { id: "{{id}}", store: "{{ctx.store_id}}" },
      headers: { "X-Chat": "{{ctx.chat_id}}" },
    },
    response: { extract: "json_path", path: "$.items" },
  };
}

/** The baseline's client: one keep-alive undici Agent and the same request, shaped the same way. */
export function undiciClient(backendUrl: string, route = "/items") {
  const agent = new Agent({ keepAliveTimeout: 4_000 });
  return {
    agent,
    async call(id: string): Promise<string> {
      const res = await request(`${backendUrl}${route}?id=${encodeURIComponent(id)}&store=store-1`, {
        dispatcher: agent,
        headers: { "x-chat": "ses_bench" },
      });
      const body = (await res.body.json()) as { items: unknown };
      return JSON.stringify(body.items);
    },
  };
}

/**
 * A scripted agent (provider "scripted", INSIKA_SCRIPTED_DIR) whose turns play
 * `steps`, allowed to call the given tools. Returns the agent id.
 */
export async function scriptedAgent(
  db: Db,
  scriptsDir: string,
  id: string,
  steps: ScriptedPart[][],
  options: { tools: string[]; limits?: Record<string, number> },
): Promise<string> {
  fs.writeFileSync(path.join(scriptsDir, `${id}.json`), JSON.stringify(steps));
  await putAgent(db, OPERATOR, id, {
    model: { provider: "scripted", model: id },
    metadata: { store_id: "store-1" },
    tools_allow: options.tools,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  return id;
}

/** Stores the bench's data tool in `db` (the real write path). */
export async function storeItemTool(db: Db, backendUrl: string, name = "lookup_item", route = "/items"): Promise<void> {
  await putTool(db, OPERATOR, name, itemTool(backendUrl, name, route));
}

/** A call record as executeDataTool writes it for the bench tool (for benches that write traces directly). */
export function sampleCallRecord(callId: string) {
  return {
    call_id: callId,
    tool: "lookup_item",
    kind: "data",
    arguments: { id: "42" },
    request: {
      method: "GET",
      url: "http://127.0.0.1:4100/items?id=42&store=store-1",
      headers: { "X-Chat": "ses_bench" },
    },
    status: 200,
    ok: true,
    duration_ms: 1,
    result: '[{"id":"42","name":"Desk lamp","price":19.9,"stock":3}]',
    egress: { verdict: "allowed", rule: "allowlisted", hint: null },
  };
}
