/**
 * Test-only helpers: a real HTTP backend on 127.0.0.1 that records what it
 * receives, relaxed postures for reaching it, a resolver stub that answers
 * loopback only, and a data tool factory. Tests send traffic to loopback only.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parsePosture, type EgressPosture, type Resolver } from "@/lib/egress";
import type { DataToolDefinition } from "@/lib/tools/types";

export interface ReceivedRequest {
  method: string;
  /** The request target as sent (path and query, still encoded). */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: ReceivedRequest, res: ServerResponse, backend: Backend) => void;

export interface Backend {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Answers JSON with a status (default 200). */
export function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** Starts a backend on 127.0.0.1 (ephemeral port) that runs `handler` for every request. */
export async function startBackend(handler: Handler = (_req, res) => json(res, { ok: true })): Promise<Backend> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received: ReceivedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(received);
      handler(received, res, backend);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const backend: Backend = {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return backend;
}

/** Plain http and private addresses allowed (the dev posture); one object so its dispatcher is reused. */
export const DEV_POSTURE: EgressPosture = parsePosture({
  INSIKA_EGRESS_ALLOW_HTTP: "1",
  INSIKA_EGRESS_ALLOW_PRIVATE: "1",
});

/** An allowlist posture naming exactly these hosts (e.g. `127.0.0.1:<port>`), plain http allowed. */
export function allowlistPosture(...hosts: string[]): EgressPosture {
  return parsePosture({ INSIKA_EGRESS_HOSTS: hosts.join(","), INSIKA_EGRESS_ALLOW_HTTP: "1" });
}

/** Resolves every name in `names` to 127.0.0.1 and refuses anything else (no real DNS in tests). */
export function loopbackResolver(...names: string[]): Resolver {
  return async (hostname) => {
    if (names.includes(hostname.toLowerCase())) return [{ address: "127.0.0.1", family: 4 }];
    throw Object.assign(new Error(`test resolver: unknown name ${hostname}`), { code: "ENOTFOUND" });
  };
}

/** A valid data tool definition with overridable parts. */
export function dataTool(overrides: Partial<DataToolDefinition> & { request: DataToolDefinition["request"] }): DataToolDefinition {
  return {
    name: "test_tool",
    description: "a test tool",
    parameters: { type: "object", properties: {} },
    response: { extract: "body_raw" },
    secret_headers: [],
    side_effect: false,
    timeout: 5,
    group: null,
    tags: [],
    ...overrides,
  };
}
