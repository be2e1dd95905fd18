/**
 * What the http-turn bench (bench/http-turn.ts) runs against: the model server, the tool
 * backend, the AI SDK server and the built Insika server, each in its own process, the agent
 * and a client's key set up; the load's HTTP client; and the readings taken between rounds
 * (the servers' CPU, the model server's request counts).
 */
import { Agent, request } from "undici";
import { startServer, type TestServer } from "../test/support/server";
import { ensureBuild, itemTool, startBackendProcess, startBenchProcess, type BackendProcess } from "./fixtures";

export const INSIKA_MODEL = "insika-bench";
export const MESSAGE = "find item 42";

/** The load's client: one keep-alive pool per origin, as big as the largest concurrency. */
export const client = new Agent({ connections: 256, keepAliveTimeout: 4_000 });

export async function send(
  url: string,
  options: { method?: "GET" | "POST"; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; type: string; text: string }> {
  const res = await request(url, {
    method: options.method ?? "POST",
    dispatcher: client,
    headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, type: String(res.headers["content-type"] ?? ""), text };
}

/** An Insika server of the bench, with a `turns:run` key for the bench agent (what a client holds). */
export interface InsikaServer {
  server: TestServer;
  key: string;
}

export interface Setup extends InsikaServer {
  /** The same build started with a bare `next start`: the JSON turn through Next's router. */
  nextStart: InsikaServer;
  aisdk: BackendProcess;
  model: BackendProcess;
}

export async function setup(stack: Array<() => unknown>, nodeArgs: string[] = []): Promise<Setup> {
  const model = await startBenchProcess("model-server-process");
  stack.push(() => model.stop());
  const backend = await startBackendProcess();
  stack.push(() => backend.stop());
  const aisdk = await startBenchProcess("aisdk-server-process", [`${model.url}/v1`, backend.url]);
  stack.push(() => aisdk.stop());
  await ensureBuild("http-turn");
  const insika = await insikaServer(stack, model, backend, nodeArgs, "serve");
  const nextStart = await insikaServer(stack, model, backend, nodeArgs, "next-start");
  return { ...insika, nextStart, aisdk, model };
}

async function insikaServer(
  stack: Array<() => unknown>,
  model: BackendProcess,
  backend: BackendProcess,
  nodeArgs: string[],
  entry: "serve" | "next-start",
): Promise<InsikaServer> {
  const server = await startServer({
    env: {
      INSIKA_LOG_LEVEL: "error",
      INSIKA_EGRESS_ALLOW_HTTP: "1",
      INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
      INSIKA_PROVIDER_HOSTS: `127.0.0.1:${model.port}`,
    },
    nodeArgs,
    entry,
  });
  stack.push(() => server.stop());
  const expect = (what: string, res: { status: number; body: unknown }) => {
    if (res.status >= 300) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  };
  expect("PUT /v1/tools/lookup_item", await server.api("PUT", "/v1/tools/lookup_item", itemTool(backend.url)));
  expect(
    "PUT /v1/agents/bench",
    await server.api("PUT", "/v1/agents/bench", {
      model: { provider: "openai-compatible", model: INSIKA_MODEL, base_url: `${model.url}/v1` },
      metadata: { store_id: "store-1" },
      tools_allow: ["lookup_item"],
    }),
  );
  const made = expect(
    "POST /v1/keys",
    await server.api("POST", "/v1/keys", { name: "http-turn bench", scopes: ["turns:run"], agents: ["bench"] }),
  );
  return { server, key: String(made.key) };
}

/** `count` sessions of the bench agent, created with the client's key (not timed). */
export async function createSessions({ server, key }: InsikaServer, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, async () => {
        const res = await send(`${server.url}/v1/sessions`, {
          body: { agent_id: "bench" },
          headers: { authorization: `Bearer ${key}` },
        });
        if (res.status !== 201) throw new Error(`POST /v1/sessions: HTTP ${res.status} ${res.text}`);
        return (JSON.parse(res.text) as { id: string }).id;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

/** CPU ms so far of the Insika server (its process_cpu_seconds_total), the AI SDK server and the model server. */
export async function cpuNow({
  server,
  nextStart,
  aisdk,
  model,
}: Setup): Promise<{ insika: number; nextStart: number; aisdk: number; model: number }> {
  const sdk = JSON.parse((await send(`${aisdk.url}/cpu`, { method: "GET" })).text) as NodeJS.CpuUsage;
  const ms = JSON.parse((await send(`${model.url}/stats`, { method: "GET" })).text) as { cpu: NodeJS.CpuUsage };
  return {
    insika: await serverCpu(server),
    nextStart: await serverCpu(nextStart.server),
    aisdk: (sdk.user + sdk.system) / 1000,
    model: (ms.cpu.user + ms.cpu.system) / 1000,
  };
}

/** An Insika server's CPU ms so far (its process_cpu_seconds_total). */
async function serverCpu(server: TestServer): Promise<number> {
  const metrics = await send(`${server.url}/metrics`, {
    method: "GET",
    headers: { authorization: `Bearer ${server.token}` },
  });
  return Number(/^process_cpu_seconds_total (\S+)$/m.exec(metrics.text)?.[1] ?? NaN) * 1000;
}

export interface ModelStats {
  requests: number;
  streamed: number;
  messages: number;
}

export async function modelStats({ model }: Setup, reset = false): Promise<Record<string, ModelStats>> {
  const body = JSON.parse((await send(`${model.url}/stats`, { method: "GET" })).text) as {
    models: Record<string, ModelStats>;
  };
  if (reset) await send(`${model.url}/stats/reset`);
  return body.models;
}
