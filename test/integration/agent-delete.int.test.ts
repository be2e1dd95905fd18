/**
 * Issue 13.2 against the real server: DELETE /v1/agents/:id archives the agent. Its
 * sessions, turns, traces, approvals and memories stay readable; it leaves the list and
 * starts nothing; a turn waiting for an approval ends failed with a clear error (its
 * approval expired); a turn mid-call finishes normally; a PUT of the same id brings it back.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("deleting an agent keeps its history", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let scripts: string;
  const sent = (key: string) =>
    backend.requests.filter((r) => r.method === "POST" && JSON.parse(r.body || "{}").key === key).length;

  async function agent(id: string, key: string, extra: Record<string, unknown> = {}) {
    const steps = [
      [
        { type: "text", text: "Charging. " },
        { type: "tool-call", name: "charge", args: { key } },
      ],
      [{ type: "text", text: "charged" }],
    ];
    fs.writeFileSync(path.join(scripts, `${id}.json`), JSON.stringify(steps));
    expect(
      (
        await server.api("PUT", `/v1/agents/${id}`, {
          model: { provider: "scripted", model: id },
          memory: true,
          ...extra,
        })
      ).status,
    ).toBe(201);
    return (await server.api("POST", "/v1/sessions", { agent_id: id })).body.id as string;
  }
  async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const value = await probe();
      if (value !== undefined) return value;
      await sleep(50);
    }
    throw new Error(`timed out waiting for ${what}\n${server.output().slice(-2000)}`);
  }
  const turnOf = async (sessionId: string) =>
    (await server.api("GET", `/v1/sessions/${sessionId}`)).body.turns[0] as {
      id: string;
      status: string;
      error?: string | null;
    };

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    scripts = tempDir("insika-delete-scripts-");
    server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
      },
    });
    backend.route("POST", "/charge", (req) => {
      const key = JSON.parse(req.body).key as string;
      return { body: { charged: key }, ...(key === "slow" ? { delayMs: 1_500 } : {}) };
    });
    const put = await server.api("PUT", "/v1/tools/charge", {
      name: "charge",
      description: "charge",
      parameters: "key | string | required | idempotency key",
      request: { method: "POST", url: `${backend.url}/charge`, body: { key: "{{key}}" } },
    });
    expect(put.status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
  });

  it("archives: history readable, gone from the list, no new session or turn, 404 on a second delete", async () => {
    const sessionId = await agent("gone", "done");
    const turn = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" });
    expect(turn.body.status).toBe("completed");

    const deleted = await server.api("DELETE", "/v1/agents/gone");
    expect(deleted).toMatchObject({ status: 200, body: { deleted: "gone", failed_turns: [] } });

    const session = await server.api("GET", `/v1/sessions/${sessionId}`);
    expect(session.status).toBe(200);
    expect(session.body.turns.map((t: { status: string }) => t.status)).toEqual(["completed"]);
    const trace = await server.api("GET", `/v1/sessions/${sessionId}/trace`);
    expect(trace.body.turns[0].calls.map((c: { tool: string }) => c.tool)).toEqual(["charge"]);
    expect(
      (await server.api("GET", "/v1/sessions?agent_id=gone")).body.sessions.map((s: { id: string }) => s.id),
    ).toEqual([sessionId]);

    expect((await server.api("GET", "/v1/agents")).body.agents.map((a: { id: string }) => a.id)).not.toContain("gone");
    expect((await server.api("GET", "/v1/agents/gone")).status).toBe(404);
    expect((await server.api("GET", "/v1/agents/gone/tools")).status).toBe(404);
    expect((await server.api("POST", "/v1/sessions", { agent_id: "gone" })).status).toBe(404);
    const again = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("agent 'gone' was deleted: its sessions stay readable but take no new turns");
    expect((await server.api("DELETE", "/v1/agents/gone")).status).toBe(404);

    // Re-creating the id brings the agent back with its history: the old session takes turns again.
    expect(
      (await server.api("PUT", "/v1/agents/gone", { model: { provider: "scripted", model: "gone" } })).status,
    ).toBe(201);
    expect((await server.api("GET", "/v1/agents")).body.agents.map((a: { id: string }) => a.id)).toContain("gone");
    expect((await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" })).body.status).toBe(
      "completed",
    );
  });

  it("a turn waiting for an approval ends failed with a clear error; its approval can no longer be decided", async () => {
    const sessionId = await agent("waits", "w1", { approvals: ["charge"] });
    const turn = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" });
    expect(turn.body.status).toBe("waiting");
    const approval = (
      (await server.api("GET", "/v1/approvals?status=pending")).body.approvals as { id: string; session_id: string }[]
    ).find((a) => a.session_id === sessionId)!;

    const deleted = await server.api("DELETE", "/v1/agents/waits");
    expect(deleted.body).toEqual({ deleted: "waits", failed_turns: [turn.body.turn_id] });
    expect(await turnOf(sessionId)).toMatchObject({
      status: "failed",
      error: "agent 'waits' was deleted while this turn waited for an approval",
    });
    const decided = await server.api("POST", `/v1/approvals/${approval.id}`, { decision: "approved" });
    expect(decided.status).toBe(409);
    expect(sent("w1")).toBe(0);
    const traced = (await server.api("GET", `/v1/sessions/${sessionId}/trace`)).body.turns[0].events;
    const events = traced.map((e: { type: string }) => e.type);
    expect(events.slice(-2)).toEqual(["turn_waiting", "turn_failed"]);
    expect(traced.at(-1)).toMatchObject({ code: "agent_deleted", fault: "configuration" });
    expect((await server.api("POST", `/v1/turns/${turn.body.turn_id}/resume`)).status).toBe(409);
  });

  it("a turn mid-call when its agent is deleted finishes normally (no foreign-key error)", async () => {
    const sessionId = await agent("busy", "slow");
    const answer = server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" });
    await until("the call to reach the backend", async () => (sent("slow") === 1 ? true : undefined));
    expect((await server.api("DELETE", "/v1/agents/busy")).status).toBe(200);
    const done = await answer;
    expect(done.body).toMatchObject({ status: "completed", content: "charged" });
    expect(await turnOf(sessionId)).toMatchObject({ status: "completed" });
    expect(server.output()).not.toMatch(/FOREIGN KEY/);
  });
});
