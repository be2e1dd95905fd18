import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { endAfterLinger } from "./end-after-linger";

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A loopback server that refuses every POST at once, without reading its body, as the turn route does past the cap. */
async function refusing(lingering: boolean): Promise<string> {
  const server = http.createServer((req, res) => {
    const text = JSON.stringify({ error: { code: "payload_too_large" } });
    res.writeHead(413, { "content-type": "application/json", "content-length": text.length, connection: "close" });
    if (lingering) endAfterLinger(req, res, text);
    else res.end(text);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/**
 * A client that reads nothing until it has sent its whole body, as an HTTP client that writes a
 * request before it parses the answer does: the head and 1 KiB, a pause (the server answers
 * meanwhile), then 1 MiB more, and only then does it read. What the server sent is lost if the
 * connection was reset under the upload.
 */
function uploadThenRead(url: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let text = "";
    socket.pause();
    socket.on("data", (d) => (text += d));
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(text || `error ${error.code}`));
    socket.on("close", () => resolve(text));
    const rest = Buffer.alloc(1024 * 1024, 0x78);
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${1024 + rest.length}\r\n\r\n${"x".repeat(1024)}`);
    setTimeout(() => socket.write(rest, () => socket.resume()), 100);
  });
}

describe("endAfterLinger", () => {
  it("lets a client that is still uploading read the refusal it was sent", async () => {
    const answer = await uploadThenRead(await refusing(true));
    expect(answer).toMatch(/^HTTP\/1\.1 413 [\s\S]*\r\n\r\n\{"error":\{"code":"payload_too_large"\}\}$/);
  });

  it("is what it takes: closed at once, the same client reads no answer", async () => {
    const answer = await uploadThenRead(await refusing(false));
    expect(answer).not.toContain("413");
  });

  it("closes the connection at its time bound when the client never ends its body", async () => {
    const server = http.createServer((req, res) => {
      res.writeHead(413, { "content-length": 2, connection: "close" });
      endAfterLinger(req, res, "no", { ms: 100, maxBytes: 1024 * 1024 });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      let text = "";
      socket.on("data", (d) => (text += d));
      socket.on("close", () => resolve(text));
      socket.on("error", () => undefined);
      socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nabc");
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 [\s\S]*\r\n\r\nno$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });
});
