/**
 * A real loopback HTTP backend for tests: routes by method and path, records
 * every request (headers and body) so tests can count side effects.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: RecordedRequest) => { status?: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };

export interface Backend {
  url: string;
  port: number;
  requests: RecordedRequest[];
  route(method: string, path: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function startBackend(): Promise<Backend> {
  const routes = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(recorded);
      const path = recorded.url.split("?")[0] ?? "";
      const handler = routes.get(`${recorded.method} ${path}`);
      const answer = handler ? handler(recorded) : { status: 404, body: { error: "no route" } };
      const send = () => {
        const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? null);
        res.writeHead(answer.status ?? 200, { "content-type": typeof answer.body === "string" ? "text/plain" : "application/json", ...answer.headers });
        res.end(body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    route: (method, path, handler) => routes.set(`${method} ${path}`, handler),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
