/**
 * The http-turn bench's baseline: what a user would write instead of Insika, a small Node
 * `http` server around the AI SDK loop, in its own process. Per request it runs the loop with
 * `@ai-sdk/openai-compatible` (the SDK's default fetch) against the bench's model server,
 * with one zod tool calling the bench's tool backend over undici (the same request Insika's
 * data tool sends: bench/fixtures.ts undiciClient), `stopWhen: stepCountIs(5)`, and persists
 * nothing:
 *   - `POST /generate {message}`: `generateText`, answered as JSON `{text, tool_calls, tool_results}`;
 *   - `POST /stream {message}`: `streamText`, streamed as the AI SDK's UI message stream (SSE);
 *   - `GET /health`: `{"ok":true}` (the floor of a bare Node server);
 *   - `GET /cpu`: this process's `process.cpuUsage()` (µs).
 * `node bench/aisdk-server-process.ts MODEL_BASE_URL BACKEND_URL`; prints `{"port": N}` once
 * listening; exits when its parent goes away.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { z } from "zod";
import { undiciClient } from "./fixtures";
import { startedAs } from "./bench-script";

/** The model name the AI SDK server asks for (the model server counts requests per name). */
export const AISDK_MODEL = "aisdk-bench";

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

async function readMessage(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { message?: unknown };
  if (typeof body.message !== "string") throw new Error("the body needs a string `message`");
  return body.message;
}

async function main(modelBaseUrl: string, backendUrl: string): Promise<void> {
  const model = createOpenAICompatible({ name: "bench", baseURL: modelBaseUrl, includeUsage: true }).chatModel(
    AISDK_MODEL,
  );
  const backend = undiciClient(backendUrl);
  const tools = {
    lookup_item: tool({
      description: "Look up an item of the store by id",
      inputSchema: z.object({ id: z.string().describe("The item id") }),
      execute: ({ id }) => backend.call(id),
    }),
  };
  const server = createServer((req, res) => {
    const handle = async () => {
      if (req.method === "GET" && req.url === "/health") return send(res, 200, { ok: true });
      if (req.method === "GET" && req.url === "/cpu") return send(res, 200, process.cpuUsage());
      if (req.method === "POST" && req.url === "/generate") {
        const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: await readMessage(req) });
        return send(res, 200, {
          text: result.text,
          tool_calls: result.steps.reduce((n, s) => n + s.toolCalls.length, 0),
          tool_results: result.steps.reduce((n, s) => n + s.toolResults.length, 0),
        });
      }
      if (req.method === "POST" && req.url === "/stream") {
        const result = streamText({ model, tools, stopWhen: stepCountIs(5), prompt: await readMessage(req) });
        return result.pipeUIMessageStreamToResponse(res);
      }
      send(res, 404, { error: `no route ${req.method} ${req.url}` });
    };
    handle().catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

if (startedAs("aisdk-server-process")) {
  const [modelBaseUrl, backendUrl] = process.argv.slice(2);
  if (!modelBaseUrl || !backendUrl) throw new Error("usage: aisdk-server-process.ts MODEL_BASE_URL BACKEND_URL");
  void main(modelBaseUrl, backendUrl);
}
