/**
 * The http-turn bench's OpenAI-compatible model server, in its own process (on 2 cores the
 * model's work must not share the event loop of what is measured). Built on the tests'
 * loopback server (test/support/loopback-server.ts) and their chat chunk shapes
 * (test/support/loopback-model-server.ts), it answers `POST /v1/chat/completions` the way a
 * model with one tool would, instantly:
 *   - no tool result after the last user message: one call of the offered `lookup_item`
 *     with {"id":"42"} (finish_reason "tool_calls");
 *   - else the answer `answerFor(<tool results>)`: it names the item found in the tool result
 *     and how many tool results the model saw, so a client can check that its turn called
 *     the tool exactly once and that the result reached the model.
 * `stream: true` answers SSE chunks (the answer in three text deltas, a usage chunk when
 * `stream_options.include_usage`, then `[DONE]`), else one `chat.completion` JSON.
 * `GET /stats` answers `{models, cpu}`: requests and messages per model name so far (`POST
 * /stats/reset` forgets them) and this process's `process.cpuUsage()` (µs). Prints `{"port": N}` once listening; exits when its parent goes away.
 */
import type { ServerResponse } from "node:http";
import { chatChunk, chatUsageChunk } from "../test/support/loopback-model-server";
import { json, startLoopbackServer } from "../test/support/loopback-server";
import { startedAs } from "./bench-script";

export const TOOL_NAME = "lookup_item";

/** What the model answers once it has seen `results` tool results naming `item` (null: none found). */
export function answerFor(item: string | null, results: number): string {
  return `Found: ${item ?? "nothing"} (${results} tool result${results === 1 ? "" : "s"})`;
}

/** The answer a turn that made exactly one successful `lookup_item` call ends with. */
export const EXPECTED_ANSWER = answerFor("Desk lamp", 1);

interface ChatMessage {
  role: string;
  content?: unknown;
}

interface ChatRequest {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages?: ChatMessage[];
  tools?: Array<{ function?: { name?: string } }>;
}

interface ModelStats {
  requests: number;
  streamed: number;
  messages: number;
}

/** The item's name in a tool result (JSON text, possibly encoded once more as a JSON string). */
function itemName(content: unknown): string | null {
  const text = typeof content === "string" ? content : JSON.stringify(content ?? null);
  return /name\\?"\s*:\s*\\?"([^"\\]+)/.exec(text)?.[1] ?? null;
}

function reply(body: ChatRequest, res: ServerResponse, callId: string): void {
  const messages = body.messages ?? [];
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === "user") lastUser = i;
  });
  const results = messages.slice(lastUser + 1).filter((m) => m.role === "tool");
  const offered = (body.tools ?? []).some((t) => t.function?.name === TOOL_NAME);
  if (results.length === 0 && !offered) {
    json(res, { error: { message: `the model expects the tool ${TOOL_NAME} to be offered`, type: "bench" } }, 400);
    return;
  }
  const call = { id: callId, type: "function", function: { name: TOOL_NAME, arguments: '{"id":"42"}' } };
  const answer = results.length > 0 ? answerFor(itemName(results[0]?.content), results.length) : null;
  const usage = { prompt_tokens: 20 + messages.length, completion_tokens: 8 };
  if (body.stream !== true) {
    json(res, {
      id: "chatcmpl-bench",
      object: "chat.completion",
      created: 1_700_000_000,
      model: body.model ?? "bench",
      choices: [
        {
          index: 0,
          message:
            answer === null
              ? { role: "assistant", content: null, tool_calls: [call] }
              : { role: "assistant", content: answer },
          finish_reason: answer === null ? "tool_calls" : "stop",
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
    return;
  }
  const events: string[] = [];
  if (answer === null) {
    events.push(chatChunk({ role: "assistant", content: null, tool_calls: [{ index: 0, ...call }] }));
    events.push(chatChunk({}, "tool_calls"));
  } else {
    const third = Math.ceil(answer.length / 3);
    events.push(chatChunk({ role: "assistant", content: answer.slice(0, third) }));
    events.push(chatChunk({ content: answer.slice(third, 2 * third) }));
    events.push(chatChunk({ content: answer.slice(2 * third) }));
    events.push(chatChunk({}, "stop"));
  }
  if (body.stream_options?.include_usage) events.push(chatUsageChunk(usage.prompt_tokens, usage.completion_tokens));
  events.push("[DONE]");
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end(events.map((e) => `data: ${e}\n\n`).join(""));
}

async function main(): Promise<void> {
  const stats = new Map<string, ModelStats>();
  let calls = 0;
  const server = await startLoopbackServer((req, res, self) => {
    // The fixture records every request for the tests; a bench sends hundreds of thousands.
    self.requests.length = 0;
    if (req.method === "GET" && req.url === "/stats")
      return json(res, { models: Object.fromEntries(stats), cpu: process.cpuUsage() });
    if (req.method === "POST" && req.url === "/stats/reset") {
      stats.clear();
      return json(res, { ok: true });
    }
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      return json(res, { error: { message: `no route ${req.method} ${req.url}`, type: "bench" } }, 404);
    }
    let body: ChatRequest;
    try {
      body = JSON.parse(req.body) as ChatRequest;
    } catch {
      return json(res, { error: { message: "the body is not JSON", type: "bench" } }, 400);
    }
    const seen = stats.get(body.model ?? "") ?? { requests: 0, streamed: 0, messages: 0 };
    seen.requests += 1;
    seen.streamed += body.stream === true ? 1 : 0;
    seen.messages += body.messages?.length ?? 0;
    stats.set(body.model ?? "", seen);
    reply(body, res, `call_${(calls += 1)}`);
  });
  process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => void server.close().then(() => process.exit(0)));
}

if (startedAs("model-server-process")) void main();
