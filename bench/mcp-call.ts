/**
 * mcp-call: one call of an ingested MCP tool (server-everything's `echo`, imported
 * with importMcpServer, called with executeDataTool: the JSON-RPC envelope through
 * the guarded undici client, session kept) against the official SDK client's
 * callTool on the same server (its default fetch transport). Sequential calls,
 * alternating call by call; medians. Also shown, not in the table: the SDK client
 * given the guard's fetch (what ingestion uses).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { guardedFetch, parsePosture } from "@/lib/egress";
import { executeDataTool } from "@/lib/http-tools";
import { createMcpCaller } from "@/lib/mcp";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { getCatalog } from "@/lib/services/tools/catalog";
import { importMcpServer } from "@/lib/services/mcp/import-mcp-server";
import { freshDb } from "./fixtures";
import { describe, interleave, row, say, stats, type Row } from "./harness";
import { startLoopbackEverythingMcp } from "../test/support/loopback-everything-mcp";
import { operatorPrincipal } from "@/lib/access/principal";

const OPERATOR = operatorPrincipal("api");

const SIZES = [30, 300, 3_000];
const WARMUP = 50;

async function sdkClient(url: string, fetch?: ReturnType<typeof guardedFetch>): Promise<Client> {
  const client = new Client({ name: "insika-bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), fetch ? { fetch } : {}));
  return client;
}

export default async function mcpCall(): Promise<Row[]> {
  const server = await startLoopbackEverythingMcp();
  const posture = parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_HOSTS: `127.0.0.1:${server.port}` });
  const secrets = staticSecrets({});
  const db = freshDb();
  await importMcpServer(db, OPERATOR, { name: "everything", url: server.url }, { posture, secrets });
  const entry = (await getCatalog(db)).entries.get("echo");
  if (entry?.status !== "ok" || entry.kind !== "mcp") throw new Error("echo was not ingested");
  const deps = { posture, secrets, mcp: createMcpCaller() };
  const plain = await sdkClient(server.url);
  const guarded = await sdkClient(server.url, guardedFetch(posture));

  const insika = async (i: number) => {
    const r = await executeDataTool(entry.definition, { message: `m${i}` }, {}, deps);
    if (!r.ok) throw new Error(`insika echo failed: ${r.error}`);
  };
  const sdk = (i: number) => plain.callTool({ name: "echo", arguments: { message: `m${i}` } });
  const sdkGuarded = (i: number) => guarded.callTool({ name: "echo", arguments: { message: `m${i}` } });

  say(
    `mcp-call: server-everything (own process) at ${server.url}, tool echo; sequential; sides alternate per call; ${WARMUP} warm-up calls per size`,
  );
  const rows: Row[] = [];
  const warnings = quietAbortListenerWarnings();
  try {
    for (const size of SIZES) {
      const t = await interleave({ insika, sdk, sdkGuarded }, { warmup: WARMUP, runs: size });
      const [a, b, g] = [stats(t.insika), stats(t.sdk), stats(t.sdkGuarded)];
      say(`  ${size} calls  insika:               ${describe(a)}`);
      say(
        `  ${size} calls  SDK client:           ${describe(b)}   ratio of medians ${(a.median / b.median).toFixed(3)}`,
      );
      say(`  ${size} calls  SDK + guarded fetch:  ${describe(g)}`);
      rows.push(
        row({
          name: "mcp-call",
          size: `${size} calls`,
          metric: "median per call",
          unit: "ms",
          value: a.median,
          baseline: b.median,
          goal: { on: "ratio", op: "<=", limit: 1.05 },
        }),
      );
    }
    const quieted = warnings.stop();
    if (quieted > 0)
      say(
        `  (the SDK client's fetch left ${quieted} "MaxListenersExceededWarning: ... abort listeners added to [AbortSignal]" warnings, not shown: its transport hands one long-lived signal to every fetch, and Node's fetch releases its listener only when the Request is garbage-collected)`,
      );
  } finally {
    warnings.stop();
    await plain.close();
    await guarded.close();
    await server.stop();
  }
  return rows;
}

/**
 * Counts, instead of printing, Node's warnings about too many abort listeners on one signal: the
 * baseline's transport passes its one AbortSignal to every fetch, and Node's fetch adds a
 * listener to it per request that stays until the Request is garbage-collected, so past 1,500
 * calls in flight or not yet collected Node warns about every further call. Any other warning is
 * printed as usual. `stop()` restores Node's own handling and returns the count.
 */
function quietAbortListenerWarnings() {
  const printers = process.listeners("warning");
  let count = 0;
  let active = true;
  const onWarning = (warning: Error) => {
    if (warning.name === "MaxListenersExceededWarning" && warning.message.includes("[AbortSignal]")) count += 1;
    else for (const print of printers) print(warning);
  };
  process.removeAllListeners("warning");
  process.on("warning", onWarning);
  return {
    stop(): number {
      if (active) {
        active = false;
        process.off("warning", onWarning);
        for (const print of printers) process.on("warning", print);
      }
      return count;
    },
  };
}
