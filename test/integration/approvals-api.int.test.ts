/**
 * Approvals over the API (DESIGN D8) against the real server: approve, reject, two calls of
 * the same tool needing two decisions, the serial warning, a restart while waiting, and
 * expiry as a rejection (the server restarted with a one-second TTL).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const REJECTED = JSON.stringify({ error: "rejected by operator" });

describe("approvals over the API", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let scripts: string;

  const charged = (key: string) =>
    backend.requests.filter((r) => r.method === "POST" && JSON.parse(r.body || "{}").key === key).length;
  const charge = (key: string) => ({ type: "tool-call", name: "charge", args: { key } });
  /** An agent whose scripted model makes `calls` in one step, then answers `answer`. */
  async function agent(id: string, calls: unknown[], extra: Record<string, unknown> = {}) {
    fs.writeFileSync(
      path.join(scripts, `${id}.json`),
      JSON.stringify([[{ type: "text", text: "One moment. " }, ...calls], [{ type: "text", text: "finished" }]]),
    );
    const res = await server.api("PUT", `/v1/agents/${id}`, {
      model: { provider: "scripted", model: id },
      approvals: ["charge"],
      ...extra,
    });
    expect(res.status).toBeLessThan(300);
    return (await server.api("POST", "/v1/sessions", { agent_id: id })).body.id as string;
  }
  const pending = async (sessionId: string) =>
    (
      (await server.api("GET", "/v1/approvals?status=pending")).body.approvals as {
        id: string;
        session_id: string;
        tool: string;
        arguments: { key: string };
      }[]
    ).filter((a) => a.session_id === sessionId);
  /**
   * The session once its turn is no longer running; with `pastWaiting`, once it is no longer
   * waiting either. A decision that lands while the run that asked for it is still ending is
   * picked up by that run as it ends: the turn can show `waiting` for a moment before it goes on.
   */
  async function settled(sessionId: string, options: { pastWaiting?: boolean } = {}) {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const body = (await server.api("GET", `/v1/sessions/${sessionId}`)).body;
      const turn = body.turns[0];
      const goingOn = turn.status === "running" || (options.pastWaiting && turn.status === "waiting");
      if (!goingOn) return { turn, messages: body.messages as { role: string; content: string }[] };
      await sleep(50);
    }
    throw new Error(`turn did not settle\n${server.output().slice(-2000)}`);
  }
  const events = async (sessionId: string) =>
    (await server.api("GET", `/v1/sessions/${sessionId}/trace`)).body.turns[0].events as {
      type: string;
      [k: string]: unknown;
    }[];

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    scripts = tempDir("insika-approval-scripts-");
    server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
      },
    });
    backend.route("POST", "/charge", (req) => ({ body: { charged: JSON.parse(req.body).key } }));
    const put = await server.api("PUT", "/v1/tools/charge", {
      name: "charge",
      description: "charge a card",
      parameters: "key | string | required | idempotency key",
      request: { method: "POST", url: `${backend.url}/charge`, body: { key: "{{key}}" } },
    });
    expect(put.status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
  });

  it("waits on a pending approval, then approving runs the call and the turn goes on", async () => {
    const sessionId = await agent("approve", [charge("ap-1")]);
    const turn = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "pay" });
    expect(turn.body).toMatchObject({ status: "waiting", content: "" });
    expect(charged("ap-1")).toBe(0);

    const [approval] = await pending(sessionId);
    expect(approval).toMatchObject({
      turn_id: turn.body.turn_id,
      session_id: sessionId,
      call_id: "call_0_0",
      tool: "charge",
      arguments: { key: "ap-1" },
      status: "pending",
    });
    expect(typeof (approval as unknown as { created_at: string }).created_at).toBe("string");
    expect((await server.api("POST", `/v1/turns/${turn.body.turn_id}/resume`)).status).toBe(409);

    const decided = await server.api("POST", `/v1/approvals/${approval!.id}`, {
      decision: "approved",
      note: "ok by me",
    });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ id: approval!.id, status: "approved", note: "ok by me" });
    const { turn: ended, messages } = await settled(sessionId);
    expect(ended).toMatchObject({ status: "completed", content: "finished" });
    expect(charged("ap-1")).toBe(1);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect((await events(sessionId)).map((e) => e.type)).toEqual([
      "turn_started",
      "text_delta",
      "approval_requested",
      "turn_waiting",
      "turn_resumed",
      "approval_resolved",
      "tool_call",
      "tool_result",
      "text_delta",
      "turn_completed",
    ]);
    expect(await pending(sessionId)).toEqual([]);

    const again = await server.api("POST", `/v1/approvals/${approval!.id}`, { decision: "rejected" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(`approval ${approval!.id} is already approved`);
  });

  it('a rejection reaches the model as {"error":"rejected by operator"} and nothing is sent', async () => {
    const sessionId = await agent("reject", [charge("rj-1")]);
    expect((await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "pay" })).body.status).toBe(
      "waiting",
    );
    const [approval] = await pending(sessionId);
    expect(
      (await server.api("POST", `/v1/approvals/${approval!.id}`, { decision: "rejected", note: "too much" })).body
        .status,
    ).toBe("rejected");
    const { turn, messages } = await settled(sessionId);
    expect(turn.status).toBe("completed");
    expect(messages[2]?.content).toBe(REJECTED);
    expect(charged("rj-1")).toBe(0);
    const resolved = (await events(sessionId)).find((e) => e.type === "approval_resolved");
    expect(resolved).toMatchObject({ approval_id: approval!.id, call_id: "call_0_0", decision: "rejected" });
  });

  it("two calls to the same tool in one turn need two decisions; the turn runs serially and warns", async () => {
    const sessionId = await agent(
      "twice",
      [charge("tw-1"), { type: "tool-call", name: "current_time", args: {} }, charge("tw-2")],
      { limits: { tool_concurrency: 4 } },
    );
    const stream = await fetch(`${server.url}/v1/sessions/${sessionId}/turns`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${server.token}`,
        accept: "text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify({ message: "pay twice" }),
    });
    const sse = await stream.text();
    expect(sse).toContain("event: warning");
    expect(sse).toContain(
      '"message":"approvals on charge force serial execution; tool_concurrency 4 is ignored for this turn"',
    );
    expect(sse.match(/event: warning/g)).toHaveLength(1);
    expect(sse).toContain("event: approval_requested");
    expect(sse.trim().endsWith("}")).toBe(true);
    expect(sse).toMatch(/event: turn_waiting\ndata: \{\}\s*$/);

    const [first] = await pending(sessionId);
    expect(first?.arguments).toEqual({ key: "tw-1" });
    await server.api("POST", `/v1/approvals/${first!.id}`, { decision: "approved" });
    // The second call asks when its turn comes: a new approval, after the first call ran.
    let second: { id: string; arguments: { key: string } } | undefined;
    for (let i = 0; i < 300 && !second; i += 1) {
      second = (await pending(sessionId))[0];
      if (!second) await sleep(50);
    }
    expect(second?.arguments).toEqual({ key: "tw-2" });
    expect(second?.id).not.toBe(first?.id);
    expect(charged("tw-1")).toBe(1);
    expect(charged("tw-2")).toBe(0);
    await server.api("POST", `/v1/approvals/${second!.id}`, { decision: "approved" });
    const { turn, messages } = await settled(sessionId, { pastWaiting: true });
    expect(turn.status).toBe("completed");
    expect(charged("tw-2")).toBe(1);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "tool", "assistant"]);
    expect((await events(sessionId)).filter((e) => e.type === "approval_requested")).toHaveLength(2);
    // The trace keeps the warning, once, though the turn ran three times (two resumes).
    const warnings = (await events(sessionId)).filter((e) => e.type === "warning");
    expect(warnings).toEqual([
      expect.objectContaining({
        type: "warning",
        message: "approvals on charge force serial execution; tool_concurrency 4 is ignored for this turn",
      }),
    ]);
    expect((await events(sessionId)).filter((e) => e.type === "turn_resumed")).toHaveLength(2);
  });

  it("validates decisions: 404 unknown approval, 422 bad decision", async () => {
    expect((await server.api("POST", "/v1/approvals/apr_nope", { decision: "approved" })).status).toBe(404);
    expect((await server.api("POST", "/v1/approvals/apr_nope", { decision: "maybe" })).status).toBe(422);
    expect((await server.api("GET", "/v1/approvals?status=bogus")).status).toBe(422);
  });

  it("survives a restart while waiting: the decision in the new process resumes the turn", async () => {
    const sessionId = await agent("restart", [charge("rs-1")]);
    expect((await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "pay" })).body.status).toBe(
      "waiting",
    );
    await server.stop("SIGKILL");
    await server.restart();
    const [approval] = await pending(sessionId);
    expect(approval?.arguments).toEqual({ key: "rs-1" });
    expect((await settled(sessionId)).turn.status).toBe("waiting"); // nothing resumed it on its own
    await server.api("POST", `/v1/approvals/${approval!.id}`, { decision: "approved" });
    const { turn } = await settled(sessionId);
    expect(turn).toMatchObject({ status: "completed", content: "finished" });
    expect(charged("rs-1")).toBe(1);
  });

  it("expires an undecided approval after the TTL as a rejection (timer-driven), and refuses a late decision", async () => {
    server.env.INSIKA_APPROVAL_TTL = "1";
    await server.restart();
    const sessionId = await agent("expire", [charge("ex-1")]);
    expect((await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "pay" })).body.status).toBe(
      "waiting",
    );
    const [approval] = await pending(sessionId);
    // Only the session is polled here: the server's own timer must expire it.
    const deadline = Date.now() + 6_000;
    let result = await settled(sessionId);
    while (result.turn.status === "waiting" && Date.now() < deadline) {
      await sleep(100);
      result = await settled(sessionId);
    }
    expect(result.turn.status).toBe("completed");
    expect(result.messages[2]?.content).toBe(REJECTED);
    expect(charged("ex-1")).toBe(0);
    const row = await server.api("GET", `/v1/approvals/${approval!.id}`);
    expect(row.body.status).toBe("expired");
    const resolved = (await events(sessionId)).find((e) => e.type === "approval_resolved");
    expect(resolved).toMatchObject({ decision: "rejected", expired: true });
    expect((await server.api("POST", `/v1/approvals/${approval!.id}`, { decision: "approved" })).status).toBe(409);
  });
});
