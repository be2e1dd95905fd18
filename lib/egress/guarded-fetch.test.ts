/**
 * guardedFetch against loopback servers, its body streamed and read whole (`bufferUpTo`), and
 * the MCP SDK against server-everything on 127.0.0.1. Refusals are asserted with a connector
 * that records attempts.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import type { EgressDispatcher, EgressDispatcherOptions } from "./egress-dispatcher";
import { createEgressDispatcher } from "./egress-dispatcher";
import type { GuardedFetchOptions } from "./guarded-fetch";
import { EgressBlockedError, guardedFetch } from "./guarded-fetch";
import type { EgressHop } from "./send-with-redirects";
import type { EgressPosture } from "./posture";
import { parsePosture } from "./posture";
import { type LoopbackServer, startLoopbackServer } from "@/test/support/loopback-server";
import { recordingConnector } from "@/test/support/egress-doubles";

const DEV = parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_ALLOW_PRIVATE: "1" });
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(handler: Parameters<typeof startLoopbackServer>[0]): Promise<LoopbackServer> {
  const s = await startLoopbackServer(handler);
  cleanups.push(() => s.close());
  return s;
}

function fetcher(posture: EgressPosture, options: GuardedFetchOptions & EgressDispatcherOptions = {}) {
  const d: EgressDispatcher = createEgressDispatcher(posture, { connector: options.connector });
  cleanups.push(() => d.close());
  return guardedFetch(posture, { ...options, dispatcher: d });
}

describe("guardedFetch", () => {
  it("behaves like fetch for JSON POSTs", async () => {
    const s = await server((seen, res) => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          got: JSON.parse(seen.body),
          ct: seen.headers["content-type"],
          auth: seen.headers.authorization,
        }),
      );
    });
    const f = fetcher(DEV);
    const res = await f(`${s.origin}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ got: { jsonrpc: "2.0", id: 1 }, ct: "application/json", auth: "Bearer t" });
    expect(res.url).toBe(`${s.origin}/mcp`);
  });

  it("accepts a Request object", async () => {
    const s = await server((seen, res) => res.end(`${seen.method} ${seen.body}`));
    const res = await fetcher(DEV)(new Request(`${s.origin}/x`, { method: "PUT", body: "payload" }));
    expect(await res.text()).toBe("PUT payload");
  });

  it("streams the body (SSE) instead of buffering it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      void gate.then(() => res.end("data: second\n\n"));
    });
    const res = await fetcher(DEV)(`${s.origin}/sse`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    // The server has not finished: only a streaming body could deliver this now.
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    release();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("data: second\n\n");
  });

  it("rewrites an event stream's line ends to LF (and leaves other bodies alone)", async () => {
    // Bare CRs, a CRLF split across writes, and a Content-Length that counts them.
    const sse = "data: a\rdata: b\r\rdata: c\r";
    const s = await server((req, res) => {
      if (req.url === "/json") return res.writeHead(200, { "content-type": "application/json" }).end('"x\\r"\r\n');
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "content-length": String(Buffer.byteLength(sse) + 3),
      });
      res.write(sse);
      setTimeout(() => res.end("\n\r\n"), 20);
    });
    const res = await fetcher(DEV)(`${s.origin}/sse`);
    // As sent: an upper bound of the rewritten body, still there for a reader's size cap.
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(sse) + 3));
    const chunks: Uint8Array[] = [];
    const reader = res.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.some((c) => c.includes(13))).toBe(false);
    expect(Buffer.concat(chunks).toString()).toBe("data: a\ndata: b\n\ndata: c\n\n");
    expect(await (await fetcher(DEV)(`${s.origin}/json`)).text()).toBe('"x\\r"\r\n');
  });

  it("decodes compressed bodies", async () => {
    const s = await server((_req, res) =>
      res.writeHead(200, { "content-encoding": "br" }).end(zlib.brotliCompressSync("hello br")),
    );
    expect(await (await fetcher(DEV)(s.origin)).text()).toBe("hello br");
  });

  it("throws `destination blocked: ...` and connects nowhere when refused", async () => {
    const { connector, attempts } = recordingConnector({ loopback: false });
    const hops: EgressHop[][] = [];
    const f = fetcher(parsePosture({}), { connector, onHops: (h) => hops.push([...h]) });
    for (const url of [
      "https://10.0.0.1/mcp",
      "http://127.0.0.1:3001/mcp",
      "https://[::ffff:169.254.169.254]/",
      "https://metadata.google.internal/",
    ]) {
      const err = await f(url).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EgressBlockedError);
      expect((err as Error).message).toMatch(/^destination blocked: \S/);
      expect((err as EgressBlockedError).hint).toBeTruthy();
    }
    expect(attempts).toEqual([]);
    expect(hops.map((h) => h[0]?.rule)).toEqual(["private-address", "plain-http", "always-blocked", "metadata-host"]);
  });

  it("re-checks redirects, dropping secrets across origins and refusing private hops", async () => {
    const b = await server((seen, res) => res.end(String(seen.headers["x-api-key"])));
    const a = await server((req, res) =>
      res.writeHead(302, { location: req.url === "/meta" ? "http://169.254.169.254/" : `${b.origin}/` }).end(),
    );
    const f = fetcher(DEV, { secretHeaderNames: ["X-Api-Key"] });
    const res = await f(`${a.origin}/go`, { headers: { "x-api-key": "k" } });
    expect(await res.text()).toBe("undefined");
    expect(res.redirected).toBe(true);
    await expect(f(`${a.origin}/meta`)).rejects.toThrow(/^destination blocked: 169\.254\.169\.254 is a cloud metadata/);
    const manual = await f(`${a.origin}/go`, { redirect: "manual" });
    expect(manual.status).toBe(302);
    await expect(f(`${a.origin}/go`, { redirect: "error" })).rejects.toThrow(TypeError);
  });

  it("rejects like fetch on abort and on network failure", async () => {
    const s = await server(() => {});
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const err = await fetcher(DEV)(s.origin, { signal: ac.signal }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
    const closed = await startLoopbackServer(() => {});
    await closed.close();
    const down = await fetcher(DEV)(closed.origin).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(TypeError);
    expect(((down as Error).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
  });
});

describe("guardedFetch reading answers whole (bufferUpTo)", () => {
  it("answers only once the whole body is in, and gives it as fetch would", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const s = await server((seen, res) => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "r1" });
      res.write(`{"got":${JSON.stringify(seen.body)},`);
      void gate.then(() => res.end('"done":true}'));
    });
    let answered = false;
    const pending = fetcher(DEV, { bufferUpTo: 1024 })(`${s.origin}/v1/chat`, { method: "POST", body: "hi" }).then(
      (res) => {
        answered = true;
        return res;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A streamed body would have answered at the headers; this one waits for the end.
    expect(answered).toBe(false);
    release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-request-id")).toBe("r1");
    expect(res.url).toBe(`${s.origin}/v1/chat`);
    expect(res.redirected).toBe(false);
    expect(await res.json()).toEqual({ got: "hi", done: true });
  });

  it("decodes a compressed body and drops the headers that described it as sent", async () => {
    const text = "hello ".repeat(200);
    const s = await server((req, res) => {
      const body = req.url === "/br" ? zlib.brotliCompressSync(text) : zlib.gzipSync(text);
      res.writeHead(200, { "content-encoding": req.url === "/br" ? "br" : "gzip", "content-length": body.length });
      res.end(body);
    });
    for (const route of ["/br", "/gzip"]) {
      const res = await fetcher(DEV, { bufferUpTo: 4096 })(`${s.origin}${route}`);
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(res.headers.get("content-length")).toBeNull();
      expect(await res.text()).toBe(text);
    }
  });

  it("takes a body of exactly the cap and fails the call, naming the cap, on one byte more", async () => {
    const s = await server((req, res) => {
      const size = req.url === "/over" ? 11 : 10;
      if (req.url === "/zipped") res.writeHead(200, { "content-encoding": "gzip" }).end(zlib.gzipSync("y".repeat(64)));
      else res.end("x".repeat(size));
    });
    const f = fetcher(DEV, { bufferUpTo: 10 });
    expect(await (await f(`${s.origin}/exact`)).text()).toBe("x".repeat(10));
    for (const route of ["/over", "/zipped"]) {
      const err = await f(`${s.origin}${route}`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TypeError);
      expect((err as Error).message).toBe("fetch failed");
      expect(((err as Error).cause as Error).message).toBe("the response body is larger than 10 bytes");
    }
  });

  it("follows, returns or refuses redirects as asked, and re-checks each hop", async () => {
    const b = await server((_req, res) => res.end("arrived"));
    const a = await server((req, res) =>
      res
        .writeHead(302, { location: req.url === "/meta" ? "http://169.254.169.254/" : `${b.origin}/end` })
        .end("moved"),
    );
    const f = fetcher(DEV, { bufferUpTo: 1024 });
    const followed = await f(`${a.origin}/go`);
    expect(await followed.text()).toBe("arrived");
    expect(followed.url).toBe(`${b.origin}/end`);
    expect(followed.redirected).toBe(true);
    const manual = await f(`${a.origin}/go`, { redirect: "manual" });
    expect(manual.status).toBe(302);
    expect(manual.headers.get("location")).toBe(`${b.origin}/end`);
    await expect(f(`${a.origin}/go`, { redirect: "error" })).rejects.toThrow(TypeError);
    await expect(f(`${a.origin}/meta`)).rejects.toThrow(/^destination blocked: 169\.254\.169\.254 is a cloud metadata/);
  });

  it("gives no body for 204 and HEAD", async () => {
    const s = await server((req, res) => res.writeHead(req.url === "/none" ? 204 : 200, { "x-len": "5" }).end());
    const f = fetcher(DEV, { bufferUpTo: 1024 });
    const none = await f(`${s.origin}/none`);
    expect(none.status).toBe(204);
    expect(none.body).toBeNull();
    const head = await f(`${s.origin}/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-len")).toBe("5");
    expect(head.body).toBeNull();
  });

  it("rejects like fetch on an abort mid-body, on a network failure, and on a refusal (connecting nowhere)", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200);
      res.write("partial");
    });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const aborted = await fetcher(DEV, { bufferUpTo: 1024 })(s.origin, { signal: ac.signal }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe("AbortError");

    const closed = await startLoopbackServer(() => {});
    await closed.close();
    const down = await fetcher(DEV, { bufferUpTo: 1024 })(closed.origin).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(TypeError);
    expect(((down as Error).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");

    const { connector, attempts } = recordingConnector({ loopback: false });
    const refused = await fetcher(parsePosture({}), { bufferUpTo: 1024, connector })("https://10.0.0.1/v1").catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(EgressBlockedError);
    expect(attempts).toEqual([]);
  });
});

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

async function waitForPort(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect({ host: "127.0.0.1", port }, () => (sock.destroy(), resolve(true)));
      sock.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`port ${port} never opened`);
}

describe("guardedFetch with the MCP SDK", () => {
  it("lists and calls tools on server-everything through the guard", async () => {
    const port = await freePort();
    const entry = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    const child = spawn(process.execPath, [entry, "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: "ignore",
    });
    cleanups.push(() => void child.kill());
    await waitForPort(port, Date.now() + 20_000);

    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const posture = parsePosture({ INSIKA_EGRESS_HOSTS: `127.0.0.1:${port}`, INSIKA_EGRESS_ALLOW_HTTP: "1" });
    const hops: EgressHop[] = [];
    const f = fetcher(posture, { onHops: (h) => hops.push(...h) });
    const client = new Client({ name: "insika-egress-test", version: "0.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { fetch: f });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("echo");
    const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    expect(JSON.stringify(result)).toContain("hi");
    expect(hops.length).toBeGreaterThan(0);
    expect(hops.every((h) => h.verdict === "allowed" && h.address === "127.0.0.1")).toBe(true);

    // The same server under the strict posture: refused before any byte is sent.
    const strict = new Client({ name: "insika-egress-test", version: "0.0.0" });
    const refused = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      fetch: fetcher(parsePosture({})),
    });
    await expect(strict.connect(refused)).rejects.toThrow(/destination blocked: plain http is not allowed/);
  }, 60_000);
});
