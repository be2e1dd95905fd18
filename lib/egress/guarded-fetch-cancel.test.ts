/**
 * guardedFetch's response stream when its reader gives up early (the MCP SDK
 * cancels the body of every answer to a notification): cancelling must not
 * leave the socket's pending data to be enqueued into a closed stream, which
 * Node 20's Readable.toWeb does, as an uncaught "Controller is already closed".
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEgressDispatcher } from "./egress-dispatcher";
import { guardedFetch } from "./guarded-fetch";
import { parsePosture } from "./posture";
import { startLoopbackServer } from "@/test/support/loopback-server";

const DEV = parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_ALLOW_PRIVATE: "1" });
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Collects uncaught exceptions while `run` goes, plus a few turns of the event loop after it. */
async function uncaughtDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const onError = (e: unknown) => seen.push(e);
  // vitest's own listener would fail the run with a less telling message; ours records instead.
  const previous = process.listeners("uncaughtException");
  process.removeAllListeners("uncaughtException");
  process.on("uncaughtException", onError);
  try {
    await run();
    for (let i = 0; i < 5; i += 1) await new Promise((r) => setTimeout(r, 10));
  } finally {
    process.off("uncaughtException", onError);
    for (const l of previous) process.on("uncaughtException", l);
  }
  return seen;
}

describe("guardedFetch: cancelling a response body", () => {
  it("raises nothing when the body is cancelled as soon as the headers are in", async () => {
    const s = await startLoopbackServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", result: {} }));
    });
    cleanups.push(() => s.close());
    const d = createEgressDispatcher(DEV);
    cleanups.push(() => d.close());
    const f = guardedFetch(DEV, { dispatcher: d });
    const errors = await uncaughtDuring(async () => {
      for (let i = 0; i < 20; i += 1) {
        const res = await f(`${s.origin}/mcp`, { method: "POST", body: "{}" });
        await res.body?.cancel();
      }
    });
    expect(errors).toEqual([]);
  });

  it("still reads a whole body, and a half-read one can be cancelled", async () => {
    const s = await startLoopbackServer((_req, res) => {
      res.setHeader("content-type", "text/event-stream");
      res.write("data: one\n\n");
      setTimeout(() => res.end("data: two\n\n"), 20);
    });
    cleanups.push(() => s.close());
    const d = createEgressDispatcher(DEV);
    cleanups.push(() => d.close());
    const f = guardedFetch(DEV, { dispatcher: d });
    expect(await (await f(`${s.origin}/a`)).text()).toBe("data: one\n\ndata: two\n\n");
    const errors = await uncaughtDuring(async () => {
      const res = await f(`${s.origin}/b`);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
      await reader.cancel();
    });
    expect(errors).toEqual([]);
  });
});
