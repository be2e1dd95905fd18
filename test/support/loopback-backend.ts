/**
 * Test-only: a loopback backend that answers by method and path (`route`), for the
 * integration tests, the e2e setup and the benchmarks; every request is recorded
 * (see startLoopbackServer), so tests can count side effects.
 */
import { startLoopbackServer, type ReceivedRequest } from "./loopback-server";

export type RouteHandler = (req: ReceivedRequest) => {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
};

export interface LoopbackBackend {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Answers `method path` (the path without its query) with `handler`; anything else is a 404. */
  route(method: string, path: string, handler: RouteHandler): void;
  close(): Promise<void>;
}

export async function startLoopbackBackend(): Promise<LoopbackBackend> {
  const routes = new Map<string, RouteHandler>();
  const server = await startLoopbackServer((req, res) => {
    const path = req.url.split("?")[0] ?? "";
    const handler = routes.get(`${req.method} ${path}`);
    const answer = handler ? handler(req) : { status: 404, body: { error: "no route" } };
    const send = () => {
      const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? null);
      res.writeHead(answer.status ?? 200, {
        "content-type": typeof answer.body === "string" ? "text/plain" : "application/json",
        ...answer.headers,
      });
      res.end(body);
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  });
  return {
    url: server.origin,
    port: server.port,
    requests: server.requests,
    route: (method, path, handler) => routes.set(`${method} ${path}`, handler),
    close: server.close,
  };
}
