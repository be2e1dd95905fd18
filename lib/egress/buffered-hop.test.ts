/**
 * The buffering transport's own edges, through guardedRequest (the paths it shares with the
 * streamed transport are in guarded-request*.test.ts): a deadline that fires before the
 * request has a connection, a redirect whose body is larger than what is drained, and a body
 * that never ends read up to the caller's stop. Loopback only; the hanging connect is a
 * connector that never answers.
 */
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createEgressDispatcher } from "./egress-dispatcher";
import { guardedRequest } from "./guarded-request";
import { parsePosture } from "./posture";
import { harness } from "@/test/support/egress-doubles";

const DEV = parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_ALLOW_PRIVATE: "1" });
const { server, send, cleanup } = harness();
afterEach(cleanup);

describe("bufferedHop", () => {
  it("ends a call still waiting for its connection at the deadline, as a timeout", async () => {
    let attempts = 0;
    // Never closed: a connect that never answers would hold close() (the process ends anyway).
    const hanging = createEgressDispatcher(DEV, {
      connector: () => {
        attempts += 1;
      },
    });
    const started = performance.now();
    const r = await guardedRequest(
      { method: "GET", url: "http://127.0.0.1:9/never", timeoutMs: 200 },
      { posture: DEV, dispatcher: hanging },
    );
    expect(r).toMatchObject({ ok: false, kind: "timeout", error: "request timed out after 200 ms" });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(attempts).toBe(1);
  });

  it("drains a redirect's body only so far (it may never end), then follows the redirect", async () => {
    const s = await server((seen, res) => {
      if (seen.url === "/final") return void res.end("arrived");
      res.writeHead(302, { location: "/final" });
      res.write(Buffer.alloc(256 * 1024, 97)); // more than the 64 KiB drained, and never ended
    });
    const r = await send({ url: `${s.origin}/start`, timeoutMs: 3_000 }, DEV);
    expect(r.ok && r.body.toString()).toBe("arrived");
    expect(r.hops.map((h) => h.status)).toEqual([302, 200]);
  });

  it("stops reading a body that never ends where the caller says, keeping what was read", async () => {
    const s = await server((_seen, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      // ...and the stream stays open.
    });
    const seen: string[] = [];
    const r = await send(
      {
        url: s.origin,
        stopReading: (chunk, headers) => {
          seen.push(headers["content-type"] ?? "");
          return chunk.toString().includes("first");
        },
      },
      DEV,
    );
    expect(r.ok && r.body.toString()).toBe("data: first\n\n");
    expect(r.ok && r.truncated).toBe(false);
    expect(seen).toEqual(["text/event-stream"]);
  });

  it("turns a stopReading that throws into this request's failure, plain or decoded", async () => {
    const s = await server((seen, res) => {
      if (seen.url === "/gzip") res.writeHead(200, { "content-encoding": "gzip" }).end(zlib.gzipSync("data: x\n\n"));
      else res.end("data: x\n\n");
    });
    for (const path of ["/plain", "/gzip"]) {
      const r = await send(
        {
          url: `${s.origin}${path}`,
          stopReading: () => {
            throw new Error("reader bug");
          },
        },
        DEV,
      );
      expect(r, path).toMatchObject({ ok: false, kind: "network", error: "network error: reader bug", status: 200 });
    }
  });
});
