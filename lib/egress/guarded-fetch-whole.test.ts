/**
 * guardedFetch with `bufferUpTo`: the answer read whole (decoded, capped) before the Response
 * is made, against loopback servers; refusals against a connector that records attempts.
 */
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createEgressDispatcher } from "./egress-dispatcher";
import { EgressBlockedError, guardedFetch } from "./guarded-fetch";
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

function wholeFetch(posture: EgressPosture, bufferUpTo: number, connector?: ReturnType<typeof recordingConnector>) {
  const dispatcher = createEgressDispatcher(posture, connector ? { connector: connector.connector } : {});
  cleanups.push(() => dispatcher.close());
  return guardedFetch(posture, { dispatcher, bufferUpTo });
}

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
    const pending = wholeFetch(DEV, 1024)(`${s.origin}/v1/chat`, { method: "POST", body: "hi" }).then((res) => {
      answered = true;
      return res;
    });
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
      const res = await wholeFetch(DEV, 4096)(`${s.origin}${route}`);
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
    const f = wholeFetch(DEV, 10);
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
    const f = wholeFetch(DEV, 1024);
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
    const f = wholeFetch(DEV, 1024);
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
    const aborted = await wholeFetch(DEV, 1024)(s.origin, { signal: ac.signal }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe("AbortError");

    const closed = await startLoopbackServer(() => {});
    await closed.close();
    const down = await wholeFetch(DEV, 1024)(closed.origin).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(TypeError);
    expect(((down as Error).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");

    const recorder = recordingConnector({ loopback: false });
    const refused = await wholeFetch(parsePosture({}), 1024, recorder)("https://10.0.0.1/v1").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EgressBlockedError);
    expect(recorder.attempts).toEqual([]);
  });
});
