/**
 * How the server process (scripts/serve.mjs) stops on SIGTERM: a request in flight is answered
 * first, and the connection it leaves idle does not hold the stop open; a request still going
 * after the grace (INSIKA_SHUTDOWN_GRACE) is cut, its lease is given up, and its turn resumes as
 * soon as the server is back.
 */
import fs from "node:fs";
import path from "node:path";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCheckpoint } from "@/db/queries/checkpoints";
import { listTurns } from "@/db/queries/turns";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";
import { openServerDb } from "../support/test-database";

/** How long the backend takes to answer the tool's call: the window the stop signal lands in. */
const SLOW_MS = 1_000;
/** How long the backend holds the first call of the tool "stalled": longer than the test waits. */
const STALL_MS = 60_000;

describe("stopping the server", () => {
  let backend: LoopbackBackend;
  let scripts: string;

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    backend.route("GET", "/slow", () => ({ body: { stock: 7 }, delayMs: SLOW_MS }));
    // The first call outlasts any stop; the calls after it (a resumed turn's) answer at once.
    let stalls = 0;
    backend.route("GET", "/stall", () => ({ body: { stock: 3 }, delayMs: stalls++ === 0 ? STALL_MS : 0 }));
    scripts = tempDir("insika-scripts-");
    fs.writeFileSync(
      path.join(scripts, "stopper.json"),
      JSON.stringify([[{ type: "tool-call", name: "stock", args: {} }], [{ type: "text", text: "7 in stock" }]]),
    );
  });
  afterAll(() => backend?.close());

  async function serverWithTool(env: Record<string, string> = {}, path = "/slow"): Promise<TestServer> {
    const server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
        ...env,
      },
    });
    await server.api("PUT", "/v1/tools/stock", {
      name: "stock",
      description: "stock level",
      request: { method: "GET", url: `${backend.url}${path}` },
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

  it("cuts a turn still in flight after the grace, gives its lease up, exits, and the turn resumes at once after the restart", async () => {
    // The default lease (15 s): the restart must not wait for it to run out.
    const server = await serverWithTool({ INSIKA_SHUTDOWN_GRACE: "1", INSIKA_LOG_LEVEL: "info" }, "/stall");
    try {
      const session = (await server.api("POST", "/v1/sessions", { agent_id: "stopper" })).body.id;
      const seen = backend.requests.length;
      const turn = request(`${server.url}/v1/sessions/${session}/turns`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
        body: JSON.stringify({ message: "how many?" }),
      }).then(
        (answer) => ({ status: answer.statusCode }),
        (error: Error) => ({ error }),
      );
      while (backend.requests.length === seen) await new Promise((r) => setTimeout(r, 10));
      const signalled = Date.now();
      await server.stop("SIGTERM");
      const stopped = Date.now();
      // The grace (1 s) and the stop's own work, nowhere near the call's 60 s.
      expect(stopped - signalled).toBeLessThan(5_000);
      expect(server.pid()).toBeUndefined();
      const cut = await turn;
      expect(cut).toMatchObject({ error: expect.any(Error) });
      expect(server.output()).toContain("1 connection(s) still busy 1 s after the stop signal (INSIKA_SHUTDOWN_GRACE)");
      expect(server.output()).toContain("gave up the leases of the turns still running here");

      // The lease ran out during the stop, not up to 15 s after it.
      const db = openServerDb(server);
      try {
        const [cutTurn] = await listTurns(db, session);
        const lease = (await getCheckpoint(db, cutTurn!.id))?.leaseExpiresAt;
        expect(lease).toBeGreaterThanOrEqual(signalled);
        expect(lease).toBeLessThanOrEqual(stopped);
      } finally {
        await db.close();
      }

      // Without the lease given up, the restart would wait at least 12 s for it (renewed every 3 s).
      // The window starts once the server is up again: on a loaded machine its start alone can
      // take seconds (the lease given up is asserted above, from the row itself).
      await server.restart();
      const restarted = Date.now();
      let turns: { status: string; content: string | null }[] = [];
      while (Date.now() - restarted < 8_000) {
        turns = (await server.api("GET", `/v1/sessions/${session}`)).body.turns;
        if (turns[0]?.status === "completed") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(turns.map((t) => [t.status, t.content])).toEqual([["completed", "7 in stock"]]);
    } finally {
      await server.stop();
    }
  });
});
