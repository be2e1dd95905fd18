/**
 * A raw HTTP/1.1 request to the test server with node:http: any method, a path sent byte
 * for byte (no URL normalisation), any body bytes, chunked or with Content-Length. Stops
 * sending the body once the server has answered (a 413 before the upload ends).
 */
import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean;
}

export function rawRequest(port: number, request: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const headers: Record<string, string> = { ...request.headers };
    if (request.body && !request.chunked) headers["content-length"] = String(request.body.length);
    const req = http.request({ host: "127.0.0.1", port, method: request.method, path: request.path, headers, agent: false, timeout: timeoutMs }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms: ${request.method} ${request.path}`)));
    // A server that answers early and closes makes the rest of the upload fail: that is fine.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const body = request.body;
    if (!body) return void req.end();
    const step = 64 * 1024;
    let offset = 0;
    const pump = () => {
      while (offset < body.length && !answered) {
        const chunk = body.subarray(offset, offset + step);
        offset += step;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}
