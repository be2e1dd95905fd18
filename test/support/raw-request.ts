/**
 * A raw HTTP/1.1 request to the test server over a plain socket: any method, a path sent
 * byte for byte (no URL normalisation), any body bytes, chunked or with Content-Length.
 * Stops sending the body once the server has answered (a 413 before the upload ends). A
 * server that refuses an upload may close the connection while bytes are still in flight,
 * and the kernel then drops its answer (RST): that is `status: 0`, `reset: true`.
 */
import net from "node:net";

export interface RawResponse {
  status: number;
  reset?: boolean;
  headers: Record<string, string>;
  body: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean;
  /** Send at most this many body bytes, then wait for the answer (a server refusing on Content-Length). */
  sendAtMost?: number;
}

export function rawRequest(port: number, request: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    let answered = false;
    const timer = setTimeout(
      () => socket.destroy(new Error(`no answer within ${timeoutMs} ms: ${request.method} ${request.path}`)),
      timeoutMs,
    );
    socket.on("data", (d: Buffer) => {
      answered = true;
      received.push(d);
    });
    let reset = false;
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === "EPIPE" || error.code === "ECONNRESET") reset = true;
      else {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.on("close", () => {
      clearTimeout(timer);
      if (reset && received.length === 0) return resolve({ status: 0, reset: true, headers: {}, body: "" });
      try {
        resolve(parseResponse(Buffer.concat(received)));
      } catch (error) {
        reject(new Error(`${request.method} ${request.path}: ${(error as Error).message}`));
      }
    });
    socket.on("connect", () => {
      const headers: Record<string, string> = { host: `127.0.0.1:${port}`, connection: "close", ...request.headers };
      const body = request.body;
      if (body && request.chunked) headers["transfer-encoding"] = "chunked";
      else if (body) headers["content-length"] = String(body.length);
      const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("")}\r\n`;
      socket.write(head, "latin1");
      if (!body) return;
      const step = 64 * 1024;
      let offset = 0;
      const limit = Math.min(body.length, request.sendAtMost ?? body.length);
      const pump = () => {
        while (offset < limit && !answered && !socket.destroyed) {
          const chunk = body.subarray(offset, offset + step);
          offset += step;
          const ok = request.chunked
            ? socket.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]))
            : socket.write(chunk);
          if (!ok) return void socket.once("drain", pump);
        }
        if (request.chunked && offset >= body.length && !answered && !socket.destroyed) socket.write("0\r\n\r\n");
      };
      pump();
    });
  });
}

function parseResponse(raw: Buffer): RawResponse {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`no HTTP response (${raw.length} bytes received)`);
  const [statusLine = "", ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers["transfer-encoding"]?.includes("chunked")) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = body.indexOf("\r\n", at);
      if (lineEnd < 0) break;
      const size = parseInt(body.subarray(at, lineEnd).toString("latin1"), 16);
      if (!size) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status, headers, body: body.toString("utf8") };
}
