import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";
import { ONE_CALL_TURN_EVENTS } from "@/lib/engine/test-support";

/** Parses an SSE body into [event, data] pairs. */
function parseSse(text: string): { event: string; data: any }[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "null";
      return { event, data: JSON.parse(data) };
    });
}

describe("turns over the API with the scripted model", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let scripts: string;

  const script = (name: string, steps: unknown) =>
    fs.writeFileSync(path.join(scripts, `${name}.json`), JSON.stringify(steps));
  const agent = (id: string, extra: Record<string, unknown> = {}) =>
    server.api("PUT", `/v1/agents/${id}`, {
      model: { provider: "scripted", model: id },
      metadata: { store_id: "store-9" },
      ...extra,
    });
  const session = async (agentId: string, tenant?: string) =>
    (await server.api("POST", "/v1/sessions", { agent_id: agentId, tenant })).body.id as string;

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    scripts = tempDir("insika-scripts-");
    server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
      },
    });
    backend.route("GET", "/search", (req) => ({
      body: {
        results: [{ id: 1, q: new URL(req.url, "http://x").searchParams.get("q") }],
        chat: req.headers["x-chat"],
      },
    }));
    backend.route("POST", "/subscribe", (req) => {
      const body = JSON.parse(req.body);
      return body.path === "ok"
        ? { body: { status: "SUBSCRIBED", message: "You're in! Check your inbox." } }
        : { body: { status: "SUBSCRIPTION_FAILED", message: "already enrolled" } };
    });
    await server.api("PUT", "/v1/tools/search", {
      name: "search",
      description: "search things",
      parameters: "q | string | required | query",
      request: {
        method: "GET",
        url: `${backend.url}/search`,
        query: { q: "{{q}}" },
        headers: { "X-Chat": "{{ctx.chat_id}}" },
      },
      response: { extract: "json_path", path: "$.results" },
    });
    await server.api("PUT", "/v1/tools/subscribe", {
      name: "subscribe",
      description: "subscribe",
      parameters: "path | string | required | which path",
      request: { method: "POST", url: `${backend.url}/subscribe`, body: { path: "{{path}}" } },
      halt_when: { json_path: "tool_result.status", equals: ["SUBSCRIBED"], say: { json_path: "tool_result.message" } },
    });
    await server.api("PUT", "/v1/tools/blocked", {
      name: "blocked",
      description: "a backend the posture does not allow",
      request: { method: "GET", url: "http://127.0.0.2:9/never" },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
  });

  it("streams a turn over SSE: lead-in, tool call with ctx, result, final answer", async () => {
    script("sse", [
      [
        { type: "text", text: "Let me look. " },
        { type: "tool-call", name: "search", args: { q: "lamp", chat_id: "evil" } },
      ],
      [
        { type: "text", text: "Found a lamp." },
        { type: "usage", usage: { inputTokens: 10, outputTokens: 3 } },
      ],
    ]);
    await agent("sse");
    const id = await session("sse");
    const res = await fetch(`${server.url}/v1/sessions/${id}/turns`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${server.token}`,
        accept: "text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify({ message: "find a lamp" }),
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual([...ONE_CALL_TURN_EVENTS]);
    expect(events[3]?.data).toMatchObject({ tool: "search", ok: true });
    expect(events[5]?.data.content).toBe("Found a lamp.");
    const hit = backend.requests.at(-1)!;
    expect(hit.headers["x-chat"]).toBe(id);

    const transcript = await server.api("GET", `/v1/sessions/${id}`);
    expect(transcript.body.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(transcript.body.turns[0]).toMatchObject({ status: "completed", content: "Found a lamp." });
  });

  it("answers JSON when the client does not ask for SSE, and the next turn sees the history", async () => {
    script("json", { turns: { first: [[{ type: "text", text: "one" }]], second: [[{ type: "text", text: "two" }]] } });
    await agent("json");
    const id = await session("json");
    const first = await server.api("POST", `/v1/sessions/${id}/turns`, { message: "first" });
    expect(first.body).toMatchObject({ status: "completed", content: "one" });
    const second = await server.api("POST", `/v1/sessions/${id}/turns`, { message: "second" });
    expect(second.body).toMatchObject({ status: "completed", content: "two" });
    const transcript = await server.api("GET", `/v1/sessions/${id}`);
    expect(transcript.body.messages.map((m: { content: string }) => m.content)).toEqual([
      "first",
      "one",
      "second",
      "two",
    ]);
  });

  it("halts on SUBSCRIBED with no further provider call and publishes say when there is no lead-in", async () => {
    script("halt", [
      [{ type: "tool-call", name: "subscribe", args: { path: "ok" } }],
      [{ type: "text", text: "SHOULD NEVER BE SAID" }],
    ]);
    await agent("halt");
    const res = await server.api("POST", `/v1/sessions/${await session("halt")}/turns`, { message: "subscribe me" });
    expect(res.body).toMatchObject({ status: "halted", content: "You're in! Check your inbox." });
  });

  it("keeps the lead-in instead of say, and lets the model explain a failure", async () => {
    script("lead", [
      [
        { type: "text", text: "Subscribing you now." },
        { type: "tool-call", name: "subscribe", args: { path: "ok" } },
      ],
    ]);
    await agent("lead");
    const halted = await server.api("POST", `/v1/sessions/${await session("lead")}/turns`, { message: "go" });
    expect(halted.body).toMatchObject({ status: "halted", content: "Subscribing you now." });

    script("fail", [
      [{ type: "tool-call", name: "subscribe", args: { path: "taken" } }],
      [{ type: "text", text: "You are already enrolled." }],
    ]);
    await agent("fail");
    const explained = await server.api("POST", `/v1/sessions/${await session("fail")}/turns`, { message: "go" });
    expect(explained.body).toMatchObject({ status: "completed", content: "You are already enrolled." });
  });

  it("shows a call blocked by egress in the trace with the rule and the hint", async () => {
    script("egress", [[{ type: "tool-call", name: "blocked", args: {} }], [{ type: "text", text: "It failed." }]]);
    await agent("egress");
    const id = await session("egress");
    await server.api("POST", `/v1/sessions/${id}/turns`, { message: "go" });
    const trace = await server.api("GET", `/v1/sessions/${id}/trace`);
    const call = trace.body.turns[0].calls[0];
    expect(call).toMatchObject({ tool: "blocked", ok: false, status: null, egress: { verdict: "blocked" } });
    expect(call.error).toContain("destination blocked");
    expect(call.egress.hint).toMatch(/INSIKA_EGRESS/);
    expect(typeof call.queued_ms).toBe("number");
  });

  it("starts one turn per session when requests race: the others get 409 and nothing of theirs is written", async () => {
    backend.route("GET", "/wait", () => ({ body: { ok: true }, delayMs: 300 }));
    await server.api("PUT", "/v1/tools/wait", {
      name: "wait",
      description: "waits",
      request: { method: "GET", url: `${backend.url}/wait` },
    });
    script("race", [[{ type: "tool-call", name: "wait", args: {} }], [{ type: "text", text: "waited" }]]);
    await agent("race", { tools_allow: ["wait"] });
    const id = await session("race");
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => server.api("POST", `/v1/sessions/${id}/turns`, { message: "go" })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(answers.find((a) => a.status === 200)?.body).toMatchObject({ status: "completed", content: "waited" });
    expect(answers.find((a) => a.status === 409)?.body.error.message).toBe(
      "this session already has a turn in progress",
    );
    const transcript = await server.api("GET", `/v1/sessions/${id}`);
    expect(transcript.body.turns).toHaveLength(1);
    expect(transcript.body.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
  });

  it("reads a long session a page of turns at a time, and names a bad page parameter", async () => {
    const turns = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`m${i + 1}`, [[{ type: "text", text: `a${i + 1}` }]]]),
    );
    script("paged", { turns });
    await agent("paged");
    const id = await session("paged");
    for (let i = 1; i <= 5; i++) {
      expect((await server.api("POST", `/v1/sessions/${id}/turns`, { message: `m${i}` })).body.status).toBe(
        "completed",
      );
    }
    const contents: string[] = [];
    const cursors: unknown[] = [];
    let after: number | null = 0;
    while (after !== null) {
      const page = await server.api("GET", `/v1/sessions/${id}?after_seq=${after}&limit=2`);
      expect(page.status).toBe(200);
      contents.push(...page.body.messages.map((m: { content: string }) => m.content));
      cursors.push((after = page.body.next_after_seq));
    }
    expect(contents).toEqual(["m1", "a1", "m2", "a2", "m3", "a3", "m4", "a4", "m5", "a5"]);
    expect(cursors).toEqual([2, 4, null]);
    const trace = await server.api("GET", `/v1/sessions/${id}/trace?after_seq=3&limit=1`);
    expect(trace.body.turns.map((t: { seq: number }) => t.seq)).toEqual([4]);
    expect(trace.body.next_after_seq).toBe(4);
    // Without parameters: the first 100 turns, so every turn of this session, and no next page.
    const whole = await server.api("GET", `/v1/sessions/${id}`);
    expect([whole.body.turns.length, whole.body.next_after_seq]).toEqual([5, null]);
    for (const [query, names] of [
      ["limit=0", "limit"],
      ["limit=5000", "limit"],
      ["after_seq=-3", "after_seq"],
      ["after_seq=x", "after_seq"],
      ["after=2", "after"],
      // Read strictly: not what Number() would take, and not the last of a repeated parameter.
      ["after_seq=", "after_seq"],
      ["limit=0x10", "limit"],
      ["limit=1e2", "limit"],
      ["limit=0&limit=5", "limit: the parameter is given more than once"],
    ]) {
      for (const path of [`/v1/sessions/${id}?${query}`, `/v1/sessions/${id}/trace?${query}`]) {
        const res = await server.api("GET", path);
        expect([path, res.status, res.body.error.code]).toEqual([path, 422, "validation_failed"]);
        expect(res.body.error.message).toContain(names);
      }
    }
    // Every list and feed reads its parameters the same way.
    const turnId = whole.body.turns[0].id;
    for (const [path, name] of <[string, string][]>[
      ["/v1/approvals?status=pending&status=expired", "status"],
      [`/v1/sessions?agent_id=${id}&agent_id=other`, "agent_id"],
      [`/v1/turns/${turnId}/events?after=0&after=3`, "after"],
    ]) {
      const res = await server.api("GET", path);
      expect([path, res.status, res.body.error?.message]).toEqual([
        path,
        422,
        `${name}: the parameter is given more than once`,
      ]);
    }
  });

  it("refuses a turn for an unknown session and an empty message", async () => {
    expect((await server.api("POST", "/v1/sessions/ses_nope/turns", { message: "hi" })).status).toBe(404);
    await agent("empty");
    const id = await session("empty");
    expect((await server.api("POST", `/v1/sessions/${id}/turns`, { message: "  " })).status).toBe(422);
    expect((await server.api("POST", "/v1/sessions", { agent_id: "ghost" })).status).toBe(404);
  });
});
