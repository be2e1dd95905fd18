/**
 * How the server process (scripts/serve.mjs) stops on SIGTERM: a request in flight is answered
 * first, and the connection it leaves idle does not hold the stop open.
 */
import fs from "node:fs";
import path from "node:path";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

/** How long the backend takes to answer the tool's call: the window the stop signal lands in. */
const SLOW_MS = 1_000;

describe("stopping the server", () => {
  let backend: LoopbackBackend;
  let scripts: string;

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    backend.route("GET", "/slow", () => ({ body: { stock: 7 }, delayMs: SLOW_MS }));
    scripts = tempDir("insika-scripts-");
    fs.writeFileSync(
      path.join(scripts, "stopper.json"),
      JSON.stringify([[{ type: "tool-call", name: "stock", args: {} }], [{ type: "text", text: "7 in stock" }]]),
    );
  });
  afterAll(() => backend?.close());

  async function serverWithTool(): Promise<TestServer> {
    const server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
      },
    });
    await server.api("PUT", "/v1/tools/stock", {
      name: "stock",
      description: "stock level",
      request: { method: "GET", url: `${backend.url}/slow` },
    });
    await server.api("PUT", "/v1/agents/stopper", { model: { provider: "scripted", model: "stopper" } });
    return server;
  }

  it("answers a turn in flight when SIGTERM arrives, then exits without waiting for the client to hang up", async () => {
    const server = await serverWithTool();
    // A client that keeps an idle connection open as long as the server's Keep-Alive hint allows.
    const client = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
    try {
      const session = (await server.api("POST", "/v1/sessions", { agent_id: "stopper" })).body.id;
      const seen = backend.requests.length;
      const turn = request(`${server.url}/v1/sessions/${session}/turns`, {
        method: "POST",
        dispatcher: client,
        headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
        body: JSON.stringify({ message: "how many?" }),
      });
      while (backend.requests.length === seen) await new Promise((r) => setTimeout(r, 10));
      // The tool's call is at the backend now: the turn is in flight when the signal lands.
      const stopped = server.stop("SIGTERM");
      const answer = await turn;
      const body = (await answer.body.json()) as { status: string; content: string };
      expect([answer.statusCode, body.status, body.content]).toEqual([200, "completed", "7 in stock"]);
      // The answered connection is idle now, and the client would keep it ~4 s: the stop must not wait for it.
      const answered = Date.now();
      await stopped;
      expect(Date.now() - answered).toBeLessThan(2_000);
      expect(server.pid()).toBeUndefined();
    } finally {
      await server.stop();
      await client.close();
    }
  });
});
