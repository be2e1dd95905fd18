/**
 * A streamed provider answer is bounded: a model server that keeps streaming (an endless
 * SSE body, a gzip bomb, a tool call's arguments that never end) fails the step with a clear
 * error once the decoded answer passes the cap, and the connection is closed.
 */
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { parseProviderPosture } from "@/lib/egress";
import { harness } from "@/test/support/egress-doubles";
import { chatChunk } from "@/test/support/loopback-model-server";
import { collect, firstTurn, secrets } from "@/test/support/wire-fixtures";
import { createModel } from "./create-model";
import { ProviderError } from "./provider-error";
import { createProviderFetch, createProviderFetches, PROVIDER_STREAM_MAX_BYTES } from "./provider-fetch";
import { rejectionOf } from "@/test/support/rejection";

const h = harness();
afterEach(() => h.cleanup());

const CAP = 64 * 1024;
const posture = parseProviderPosture("127.0.0.1");

function modelAt(origin: string, provider: "openai-compatible" | "anthropic" = "openai-compatible") {
  const fetch = createProviderFetch(posture, { dispatcher: h.dispatcher(posture), streamUpTo: CAP });
  return createModel(
    { provider, model: "m", base_url: `${origin}/v1`, api_key_secret: "k" },
    { readSecret: secrets({ k: "sk-test-0123456789" }), fetch },
  );
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

const sseEvent = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${chatChunk(delta, finish)}\n\n`;
const END = `${sseEvent({}, "stop")}data: [DONE]\n\n`;

describe("createProviderFetch: streamUpTo", () => {
  it("fails a streamed answer that never ends, naming the cap, and closes the connection", async () => {
    let closed = false;
    let sent = 0;
    const s = await h.server((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.on("close", () => (closed = true));
      const first = sseEvent({
        tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "search_catalog", arguments: "" } }],
      });
      res.write(first);
      const more = sseEvent({ tool_calls: [{ index: 0, function: { arguments: "x".repeat(4096) } }] });
      const pump = () => {
        while (!closed && sent < 64 * 1024 * 1024 && res.write(more)) sent += more.length;
        if (!closed && sent < 64 * 1024 * 1024) res.once("drain", pump);
        else res.end(END);
      };
      pump();
    });
    const error = await failure(collect(modelAt(s.origin), firstTurn));
    expect(error.message).toContain(`larger than ${CAP} bytes`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(4 * 1024 * 1024);
  });

  it("bounds an Anthropic stream the same way (a tool_use whose input never ends)", async () => {
    const event = (data: Record<string, unknown> & { type: string }) =>
      `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
    const start = event({
      type: "message_start",
      message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], usage: { input_tokens: 1 } },
    });
    const toolUse = event({
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "t1", name: "search_catalog", input: {} },
    });
    const delta = event({
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: "y".repeat(4096) },
    });
    const s = await h.server((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(start + toolUse + delta.repeat(64));
    });
    const error = await failure(collect(modelAt(s.origin, "anthropic"), firstTurn));
    expect(error.message).toContain(`larger than ${CAP} bytes`);
  });

  it("counts decoded bytes: a small gzip body that inflates past the cap fails", async () => {
    const body = sseEvent({ role: "assistant", content: "a".repeat(CAP * 4) }) + END;
    const s = await h.server((_req, res) =>
      res.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" }).end(gzipSync(body)),
    );
    const error = await failure(collect(modelAt(s.origin), firstTurn));
    expect(error.message).toContain(`larger than ${CAP} bytes`);
  });

  it("passes an answer within the cap unchanged", async () => {
    const body = sseEvent({ role: "assistant", content: "hello" }) + END;
    const s = await h.server((_req, res) => res.writeHead(200, { "content-type": "text/event-stream" }).end(body));
    const parts = await collect(modelAt(s.origin), firstTurn);
    expect(parts[0]).toEqual({ type: "text-delta", text: "hello" });
  });

  it("fails at once on an announced Content-Length above the cap", async () => {
    // Only the head is sent: the refusal cannot have waited for the body.
    const s = await h.server((_req, res) =>
      res.writeHead(200, { "content-type": "text/event-stream", "content-length": String(CAP + 1) }).flushHeaders(),
    );
    const error = await failure(collect(modelAt(s.origin), firstTurn));
    expect(error.message).toContain(`larger than ${CAP} bytes`);
  });

  it("is what createProviderFetches gives the streamed steps", async () => {
    const s = await h.server((_req, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end("y".repeat(CAP * 2)),
    );
    const { fetch } = createProviderFetches(posture, { dispatcher: h.dispatcher(posture), streamUpTo: CAP });
    const res = await fetch(`${s.origin}/v1/chat/completions`);
    await expect(res.text()).rejects.toThrow(`larger than ${CAP} bytes`);
  });

  it("has a default far above a real answer", () => {
    expect(PROVIDER_STREAM_MAX_BYTES).toBeGreaterThanOrEqual(32 * 1024 * 1024);
  });
});

describe("createProviderFetch: a streamed step's line ends", () => {
  it("reaches the SDK with LF line ends whatever the content type, and only for streamed steps", async () => {
    const body = "data: a\rdata: b\r\n\r";
    const s = await h.server((_req, res) =>
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(body),
    );
    const streamed = createProviderFetch(posture, { dispatcher: h.dispatcher(posture), streamUpTo: CAP });
    expect(await (await streamed(`${s.origin}/v1/chat/completions`)).text()).toBe("data: a\ndata: b\n\n");
    const whole = createProviderFetch(posture, { dispatcher: h.dispatcher(posture), bufferUpTo: CAP });
    expect(await (await whole(`${s.origin}/v1/chat/completions`)).text()).toBe(body);
  });

  it("parses a step framed with bare CRs as one framed with LF", async () => {
    const events = [
      sseEvent({ role: "assistant", content: "Hel" }),
      sseEvent({ content: "lo" }),
      sseEvent({}, "stop"),
      "data: [DONE]\n\n",
    ].map((e) => e.replaceAll("\n", "\r"));
    const s = await h.server((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const e of events) res.write(e);
      res.end();
    });
    const parts = await collect(modelAt(s.origin), firstTurn);
    const text = parts.flatMap((p) => (p.type === "text-delta" ? [p.text] : [])).join("");
    expect(text).toBe("Hello");
  });
});
