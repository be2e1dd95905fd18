/**
 * Test-only: a loopback HTTP proxy that adds `Authorization: Bearer <key>` to every request
 * and forwards it to the target as it came — method, path, Host and Origin unchanged, body
 * and response streamed — for clients that cannot send a key (the MCP conformance runner).
 * Because Host and Origin pass through, the target's DNS-rebinding check sees what the
 * client sent.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackKeyProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export async function startLoopbackKeyProxy(targetPort: number, key: string): Promise<LoopbackKeyProxy> {
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${key}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
