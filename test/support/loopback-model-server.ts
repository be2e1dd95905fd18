/**
 * Test-only: a scripted model server on 127.0.0.1 (a loopback server, see
 * startLoopbackServer) that records every request, its JSON body parsed, and answers each
 * one with the next scripted response (SSE events, a JSON answer or a plain error); plus the
 * provider fetches, stream chunks and answer bodies the provider tests use with it.
 */
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { parseProviderPosture, type FetchLike } from "@/lib/egress";
import { createProviderFetches } from "@/lib/providers/provider-fetch";
import { startLoopbackServer } from "./loopback-server";

/** The provider fetch as a server with INSIKA_PROVIDER_HOSTS=127.0.0.1 builds it: loopback model servers are reachable. */
export const LOOPBACK_PROVIDER_POSTURE = parseProviderPosture("127.0.0.1");
/** Both provider fetches as the server passes them to createModel: streamed steps, and steps read whole. */
export const loopbackFetches = createProviderFetches(LOOPBACK_PROVIDER_POSTURE);
export const loopbackFetch: FetchLike = loopbackFetches.fetch;

/** A fetch for tests that must not send anything: any call fails the test loudly. */
export const refusingFetch: FetchLike = async (input) => {
  throw new Error(`test: unexpected provider request to ${String(input instanceof Request ? input.url : input)}`);
};

export interface ModelRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The JSON body parsed, else its text. */
  body: unknown;
}

/**
 * Whether a request asked the provider to stream: its body's `stream` as sent, absent meaning
 * false (the default of Chat Completions and of Anthropic's Messages; the AI SDK's
 * non-streaming calls leave it out).
 */
export function asksForStream(request: ModelRequest | undefined): boolean {
  if (request === undefined) throw new Error("test: no such model request");
  const body = request.body as { stream?: unknown } | null;
  return typeof body === "object" && body !== null && body.stream === true;
}

export type ScriptedResponse =
  /** SSE: each entry is written as one event (`event:` line only when `event` is set). */
  | { kind: "sse"; events: Array<{ event?: string; data: string }>; hang?: boolean }
  /** A whole (non-streamed) answer: `body` sent as JSON with status 200, e.g. chatCompletion(...). */
  | { kind: "json"; body: unknown }
  | { kind: "error"; status: number; body: string; contentType?: string };

export interface LoopbackModelServer {
  baseUrl: string;
  requests: ModelRequest[];
  close(): Promise<void>;
}

export async function startLoopbackModelServer(script: ScriptedResponse[]): Promise<LoopbackModelServer> {
  const requests: ModelRequest[] = [];
  const open = new Set<ServerResponse>();
  const server = await startLoopbackServer((req, res) => {
    let body: unknown = req.body;
    try {
      body = JSON.parse(req.body);
    } catch {
      // keep the text
    }
    requests.push({ method: req.method, url: req.url, headers: req.headers, body });
    const next = script[requests.length - 1];
    if (!next) {
      res.writeHead(599, { "content-type": "text/plain" }).end("no scripted response left");
      return;
    }
    if (next.kind === "error") {
      res.writeHead(next.status, { "content-type": next.contentType ?? "application/json" }).end(next.body);
      return;
    }
    if (next.kind === "json") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(next.body));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const e of next.events) {
      res.write(`${e.event ? `event: ${e.event}\n` : ""}data: ${e.data}\n\n`);
    }
    if (next.hang) {
      open.add(res);
      res.on("close", () => open.delete(res));
    } else {
      res.end();
    }
  });
  return {
    baseUrl: server.origin,
    requests,
    close: () => {
      for (const res of open) res.destroy();
      return server.close();
    },
  };
}

/** OpenAI Chat Completions stream chunk. */
export function chatChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "test-model",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

export function chatUsageChunk(promptTokens: number, completionTokens: number): string {
  return JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "test-model",
    choices: [],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  });
}

/** What a non-streamed Chat Completions answer holds: text and/or tool calls, and usage. */
export interface ChatAnswer {
  text?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  usage?: { prompt: number; completion: number };
}

/**
 * OpenAI Chat Completions answer body (`object: "chat.completion"`, what `stream: false` gets):
 * one choice, finishing with `tool_calls` when it makes calls, else `stop`.
 */
export function chatCompletion(answer: ChatAnswer): Record<string, unknown> {
  const toolCalls = answer.toolCalls ?? [];
  const message: Record<string, unknown> = { role: "assistant", content: answer.text ?? null };
  if (toolCalls.length > 0) {
    message.tool_calls = toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "test-model",
    choices: [{ index: 0, message, finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop" }],
    ...(answer.usage
      ? {
          usage: {
            prompt_tokens: answer.usage.prompt,
            completion_tokens: answer.usage.completion,
            total_tokens: answer.usage.prompt + answer.usage.completion,
          },
        }
      : {}),
  };
}

/** Anthropic Messages stream event. */
export function anthropicEvent(data: Record<string, unknown> & { type: string }): { event: string; data: string } {
  return { event: data.type, data: JSON.stringify(data) };
}
