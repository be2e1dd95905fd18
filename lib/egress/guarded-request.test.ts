/**
 * guardedRequest against real loopback servers: sending, keep-alive, bodies and
 * timeouts (redirects and DNS pinning: guarded-request-redirects.test.ts).
 * Traffic goes to 127.0.0.0/8 only.
 */
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { guardedRequest } from "./guarded-request";
import { parsePosture } from "./posture";
import { harness } from "@/test/support/egress-doubles";

const DEV = parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_ALLOW_PRIVATE: "1" });
const { server, dispatcher, send, cleanup } = harness();
afterEach(cleanup);

describe("sending to loopback", () => {
  it("sends method, headers and body, and returns status, headers and body", async () => {
    const s = await server((seen, res) => {
      res.setHeader("x-echo", seen.headers["x-trace"] ?? "");
      res.end(JSON.stringify({ method: seen.method, body: seen.body, host: seen.headers.host }));
    });
    const posture = parsePosture({ INSIKA_EGRESS_HOSTS: `127.0.0.1:${s.port}`, INSIKA_EGRESS_ALLOW_HTTP: "1" });
    const r = await send(
      {
        method: "post",
        url: `${s.origin}/things?q=1`,
        headers: { "X-Trace": "t1", Host: "evil.example", "content-type": "application/json" },
        body: '{"a":1}',
      },
      posture,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.status).toBe(200);
    expect(r.headers["x-echo"]).toBe("t1");
    // A caller-supplied Host is dropped: it would change routing and TLS SNI.
    expect(JSON.parse(r.body.toString())).toEqual({ method: "POST", body: '{"a":1}', host: `127.0.0.1:${s.port}` });
    expect(r.truncated).toBe(false);
    expect(r.finalUrl).toBe(`${s.origin}/things?q=1`);
    expect(r.hops).toEqual([
      {
        url: `${s.origin}/things?q=1`,
        method: "POST",
        verdict: "allowed",
        rule: "allowlisted",
        address: "127.0.0.1",
        status: 200,
      },
    ]);
  });

  it("an allowlist entry with a port admits only that port", async () => {
    const s = await server((_req, res) => res.end("x"));
    const posture = parsePosture({ INSIKA_EGRESS_HOSTS: `127.0.0.1:${s.port + 1}`, INSIKA_EGRESS_ALLOW_HTTP: "1" });
    const r = await send({ url: s.origin }, posture);
    expect(r.ok === false && r.egress?.rule).toBe("not-allowlisted");
    expect(s.connections()).toBe(0);
  });

  it("reuses the keep-alive connection: the second call goes over the first socket", async () => {
    const s = await server((_req, res) => res.end("ok"));
    const posture = parsePosture({ INSIKA_EGRESS_HOSTS: `127.0.0.1:${s.port}`, INSIKA_EGRESS_ALLOW_HTTP: "1" });
    const d = dispatcher(posture);
    expect((await send({ url: `${s.origin}/1` }, posture, d)).ok).toBe(true);
    // undici hands the socket back to the pool one macrotask after the body ends.
    await new Promise((resolve) => setImmediate(resolve));
    expect((await send({ url: `${s.origin}/2` }, posture, d)).ok).toBe(true);
    expect(s.requests).toHaveLength(2);
    expect(s.connections()).toBe(1);
    expect(d.stats.connects).toBe(1);
  });

  it("keeps back-to-back calls on a small pool of kept-alive sockets", async () => {
    const s = await server((_req, res) => res.end("ok"));
    const posture = parsePosture({ INSIKA_EGRESS_HOSTS: `127.0.0.1:${s.port}`, INSIKA_EGRESS_ALLOW_HTTP: "1" });
    const d = dispatcher(posture);
    const n = 300;
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const r = await send({ url: `${s.origin}/${i}` }, posture, d);
      times.push(performance.now() - t);
      expect(r.ok).toBe(true);
    }
    expect(s.requests).toHaveLength(n);
    // With no pause between calls the first socket is not back in the pool yet, so
    // undici opens one more; from then on the two alternate. Never one per call.
    expect(s.connections()).toBeLessThanOrEqual(2);
    times.sort((a, b) => a - b);
    console.log(
      `keep-alive: ${n} back-to-back requests over ${s.connections()} connection(s), median ${times[n >> 1]!.toFixed(3)} ms`,
    );
  });

  it("reports a refused connection as a network error", async () => {
    const s = await server((_req, res) => res.end());
    const port = s.port;
    await s.close();
    const r = await send({ url: `http://127.0.0.1:${port}/` }, DEV);
    expect(r.ok === false && r.kind).toBe("network");
    expect(r.ok === false && r.error).toMatch(/ECONNREFUSED/);
  });

  it("refuses CONNECT/TRACE and header injection without sending", async () => {
    const s = await server((_req, res) => res.end());
    expect(await send({ url: s.origin, method: "CONNECT" }, DEV)).toMatchObject({ ok: false, kind: "invalid-request" });
    expect(await send({ url: s.origin, method: "TRACE" }, DEV)).toMatchObject({ ok: false, kind: "invalid-request" });
    const r = await send({ url: s.origin, headers: { "x-a": "v\r\nx-injected: 1" } }, DEV);
    expect(r).toMatchObject({ ok: false, kind: "invalid-request" });
    expect(s.requests).toHaveLength(0);
  });

  it("returns an empty body for HEAD and 204", async () => {
    const s = await server((req, res) => {
      res.statusCode = req.url === "/none" ? 204 : 200;
      res.setHeader("content-length", "5");
      res.end(req.method === "HEAD" || req.url === "/none" ? undefined : "hello");
    });
    const head = await send({ url: s.origin, method: "HEAD" }, DEV);
    expect(head.ok && head.body.length).toBe(0);
    const none = await send({ url: `${s.origin}/none` }, DEV);
    expect(none.ok && none.status).toBe(204);
  });
});

describe("response bodies", () => {
  const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));

  it("stops a gzip bomb at the decoded cap and reports truncated", async () => {
    const s = await server((_req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(bomb));
    const t = performance.now();
    const r = await send({ url: s.origin }, DEV);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(bomb.length).toBeLessThan(128 * 1024);
    expect(r.truncated).toBe(true);
    expect(r.body.length).toBe(1024 * 1024);
    expect(r.body.every((b) => b === 0)).toBe(true);
    expect(performance.now() - t).toBeLessThan(2_000);
    const small = await send({ url: s.origin, maxBodyBytes: 1000 }, DEV);
    expect(small.ok && [small.body.length, small.truncated]).toEqual([1000, true]);
  });

  it.each([
    ["gzip", zlib.gzipSync],
    ["x-gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
    ["br", zlib.brotliCompressSync],
    ["identity", (b: Buffer) => b],
    ["deflate, gzip", (b: Buffer) => zlib.gzipSync(zlib.deflateSync(b))],
  ])("decodes %s", async (encoding, encode) => {
    const text = JSON.stringify({ hello: "world".repeat(100) });
    const s = await server((_req, res) =>
      res.writeHead(200, { "content-encoding": encoding }).end(encode(Buffer.from(text))),
    );
    const r = await send({ url: s.origin }, DEV);
    expect(r.ok && r.body.toString()).toBe(text);
    expect(r.ok && r.truncated).toBe(false);
  });

  it("caps an uncompressed body too, and keeps one exactly at the cap whole", async () => {
    const s = await server((req, res) => res.end(Buffer.alloc(req.url === "/exact" ? 4096 : 10_000, 97)));
    const over = await send({ url: s.origin, maxBodyBytes: 4096 }, DEV);
    expect(over.ok && [over.body.length, over.truncated]).toEqual([4096, true]);
    const exact = await send({ url: `${s.origin}/exact`, maxBodyBytes: 4096 }, DEV);
    expect(exact.ok && [exact.body.length, exact.truncated]).toEqual([4096, false]);
  });

  it("reports corrupt and unsupported encodings as decode errors", async () => {
    const s = await server((req, res) =>
      res.writeHead(200, { "content-encoding": req.url === "/zstd" ? "zstd" : "gzip" }).end("definitely not gzip"),
    );
    expect(await send({ url: s.origin }, DEV)).toMatchObject({ ok: false, kind: "decode" });
    expect(await send({ url: `${s.origin}/zstd` }, DEV)).toMatchObject({
      ok: false,
      kind: "decode",
      error: "unsupported content-encoding: zstd",
    });
  });

  it("reports a content-encoding with thousands of codings as a decode error", async () => {
    const s = await server((_req, res) =>
      res.writeHead(200, { "content-encoding": Array(4000).fill("br").join(",") }).end("x"),
    );
    expect(await send({ url: s.origin }, DEV)).toMatchObject({
      ok: false,
      kind: "decode",
      error: "too many content-codings (4000; at most 5)",
    });
  });
});

describe("timeouts", () => {
  it("times out waiting for headers", async () => {
    const s = await server(() => {});
    const t = performance.now();
    const r = await send({ url: s.origin, timeoutMs: 300 }, DEV);
    expect(r).toMatchObject({ ok: false, kind: "timeout", error: "request timed out after 300 ms" });
    expect(performance.now() - t).toBeLessThan(2_000);
  });

  it("bounds the body read", async () => {
    const s = await server((_req, res) => res.write("partial"));
    const r = await send({ url: s.origin, timeoutMs: 300 }, DEV);
    expect(r).toMatchObject({ ok: false, kind: "timeout", status: 200 });
  });

  it("bounds the whole redirect chain, not each hop", async () => {
    const s = await server((req, res) => {
      const n = Number(req.url!.slice(1));
      setTimeout(() => res.writeHead(302, { location: `/${n + 1}` }).end(), 150);
    });
    const r = await send({ url: `${s.origin}/0`, timeoutMs: 400 }, DEV);
    expect(r).toMatchObject({ ok: false, kind: "timeout" });
    expect(s.requests.length).toBeLessThanOrEqual(3);
  });

  it("bounds a DNS lookup that never answers, and a caller abort cuts it short too", async () => {
    const hanging = () => new Promise<never>(() => {});
    const t = performance.now();
    const r = await guardedRequest(
      { method: "GET", url: "http://slow-dns.example/", timeoutMs: 200 },
      { posture: DEV, resolver: hanging, dispatcher: dispatcher(DEV) },
    );
    expect(r).toMatchObject({ ok: false, kind: "timeout", error: "request timed out after 200 ms", hops: [] });
    expect(performance.now() - t).toBeLessThan(2_000);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const a = await guardedRequest(
      { method: "GET", url: "http://slow-dns.example/", timeoutMs: 5_000, signal: ac.signal },
      { posture: DEV, resolver: hanging, dispatcher: dispatcher(DEV) },
    );
    expect(a).toMatchObject({ ok: false, kind: "aborted" });
  });

  it("reports a caller abort as aborted", async () => {
    const s = await server(() => {});
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await send({ url: s.origin, signal: ac.signal }, DEV);
    expect(r).toMatchObject({ ok: false, kind: "aborted" });
  });
});
