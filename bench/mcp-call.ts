/**
 * The cost of one MCP tool call on loopback (server-everything, `echo`):
 * Insika's call envelope (executeDataTool -> lib/mcp -> guarded undici
 * request, session kept) against the official SDK client's callTool (with
 * global fetch, and with the guard's fetch). Medians of sequential calls.
 * Run: npx tsx bench/mcp-call.ts [calls]
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { guardedFetch, parsePosture } from "@/lib/egress";
import { executeDataTool } from "@/lib/http-tools";
import { createMcpCaller } from "@/lib/mcp";
import { staticSecrets } from "@/lib/secrets/secret-source";
import type { DataToolDefinition } from "@/lib/tools/types";

const CALLS = Number(process.argv[2] ?? 500);
const posture = parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_ALLOW_PRIVATE: "1" });

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function median(label: string, run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 50; i += 1) await run(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const m = times[Math.floor(times.length / 2)] ?? 0;
  console.log(`${label.padEnd(44)} median ${m.toFixed(3)} ms   p90 ${(times[Math.floor(times.length * 0.9)] ?? 0).toFixed(3)} ms`);
  return m;
}

async function sdkClient(url: string, guarded: boolean): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), guarded ? { fetch: guardedFetch(posture) } : {}));
  return client;
}

async function main(): Promise<void> {
  const port = await freePort();
  const entry = path.join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const child = spawn(process.execPath, [entry, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve) => child.stderr?.on("data", (d: Buffer) => d.toString().includes("listening") && resolve()));
  const url = `http://127.0.0.1:${port}/mcp`;
  try {
    const tool: DataToolDefinition = {
      name: "echo", description: "echo", parameters: { type: "object", properties: { message: { type: "string" } } },
      request: { method: "POST", url, headers: {}, query: {}, protocol: "mcp", mcp_tool: "echo" }, response: { extract: "body_raw" },
      secret_headers: [], side_effect: false, timeout: 30, group: "mcp:bench", tags: [],
    };
    const mcp = createMcpCaller();
    const deps = { posture, secrets: staticSecrets({}), mcp };
    const ours = await median("insika executeDataTool (envelope, guarded)", (i) => executeDataTool(tool, { message: `m${i}` }, {}, deps));
    const plain = await sdkClient(url, false);
    const sdk = await median("SDK client callTool (global fetch)", (i) => plain.callTool({ name: "echo", arguments: { message: `m${i}` } }));
    const guarded = await sdkClient(url, true);
    const sdkGuarded = await median("SDK client callTool (guardedFetch)", (i) => guarded.callTool({ name: "echo", arguments: { message: `m${i}` } }));
    console.log(`ratio insika / SDK: ${(ours / sdk).toFixed(2)} (global fetch), ${(ours / sdkGuarded).toFixed(2)} (guarded fetch)`);
    await plain.close();
    await guarded.close();
  } finally {
    child.kill("SIGKILL");
  }
}

void main();
