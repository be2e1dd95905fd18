/**
 * An agent as an MCP server (/v1/agents/:id/mcp), driven by the official SDK client
 * (Client + StreamableHTTPClientTransport) against the real server: initialize reports the
 * agent, tools/list is the agent's offer, tools/call runs through the turn executor (ctx from
 * the session and key, validation, egress, halt_when) and lands in the session's trace;
 * approvals wait (with progress) or ask through elicitation; list_changed after a write;
 * wrong keys, DNS rebinding and unknown sessions are refused.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type TextContent = { type: string; text: string }[];
const texts = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as TextContent).map((c) => c.text);

describe("an agent's MCP endpoint", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let key: string;
  const clients: Client[] = [];
  const endpoint = (agent = "gateway") => new URL(`${server.url}/v1/agents/${agent}/mcp`);

  async function connect(options: { token?: string; agent?: string; elicitation?: boolean } = {}) {
    const client = new Client(
      { name: "insika-test", version: "1.0.0" },
      { capabilities: options.elicitation ? { elicitation: { form: {} } } : {} },
    );
    const transport = new StreamableHTTPClientTransport(endpoint(options.agent), {
      requestInit: { headers: { authorization: `Bearer ${options.token ?? key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }
  const pendingApproval = async (sessionId: string) => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const list = (await server.api("GET", "/v1/approvals?status=pending")).body.approvals as {
        id: string;
        session_id: string;
      }[];
      const found = list.find((a) => a.session_id === sessionId);
      if (found) return found;
      await sleep(50);
    }
    throw new Error("no pending approval");
  };

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    server = await startServer({
      // A short lease, so the resume pass picks up a call its killed process left running within a second.
      env: { INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`, INSIKA_TURN_LEASE: "1" },
    });
    backend.route("GET", "/add", (req) => {
      const q = new URL(req.url, backend.url).searchParams;
      return { body: { sum: Number(q.get("a")) + Number(q.get("b")), chat: q.get("chat"), tenant: q.get("tenant") } };
    });
    backend.route("POST", "/subscribe", () => ({ body: { status: "SUBSCRIBED", message: "You are subscribed." } }));
    backend.route("POST", "/charge", (req) => ({ body: { charged: JSON.parse(req.body).key } }));
    const tools: Record<string, unknown>[] = [
      {
        name: "add",
        description: "add two integers",
        parameters: {
          type: "object",
          properties: { a: { type: "integer", description: "first" }, b: { type: "integer", description: "second" } },
          required: ["a", "b"],
        },
        request: {
          method: "GET",
          url: `${backend.url}/add`,
          query: { a: "{{a}}", b: "{{b}}", chat: "{{ctx.chat_id}}", tenant: "{{ctx.tenant}}" },
        },
      },
      {
        name: "subscribe",
        description: "subscribe",
        parameters: "path | string | required | which path",
        request: { method: "POST", url: `${backend.url}/subscribe`, body: { path: "{{path}}" } },
        halt_when: {
          json_path: "tool_result.status",
          equals: ["SUBSCRIBED"],
          say: { json_path: "tool_result.message" },
        },
      },
      {
        name: "blocked",
        description: "a backend the posture does not allow",
        request: { method: "GET", url: "http://127.0.0.2:9/x" },
      },
      {
        name: "charge",
        description: "charge a card",
        parameters: "key | string | required | idempotency key",
        request: { method: "POST", url: `${backend.url}/charge`, body: { key: "{{key}}" } },
      },
      { name: "hidden", description: "denied by the policy", request: { method: "GET", url: `${backend.url}/add` } },
    ];
    for (const tool of tools) {
      const put = await server.api("PUT", `/v1/tools/${tool.name}`, tool);
      expect(put.status, JSON.stringify(put.body)).toBe(201);
    }
    const agent = await server.api("PUT", "/v1/agents/gateway", {
      name: "Gateway",
      model: { provider: "demo", model: "demo" },
      tools_deny: ["hidden"],
      approvals: ["charge"],
    });
    expect(agent.status).toBeLessThan(300);
    expect(
      (await server.api("PUT", "/v1/agents/other", { model: { provider: "demo", model: "demo" } })).status,
    ).toBeLessThan(300);
    const created = await server.api("POST", "/v1/keys", {
      name: "mcp client",
      scopes: ["turns:run"],
      agents: ["gateway"],
      tenant: "acme",
    });
    expect(created.status).toBe(201);
    key = created.body.key;
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.stop();
    await backend?.close();
  });

  it("initializes on 2025-11-25, reporting the agent, and answers ping", async () => {
    const { client, transport } = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: "insika-agent-gateway", title: "Gateway" });
    expect(client.getInstructions()).toContain("gateway");
    expect(transport.sessionId).toMatch(/^mcp_/);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(await client.ping()).toEqual({});
  });

  it("negotiates 2025-06-18 down when the client asks for it", async () => {
    const res = await fetch(endpoint(), {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "old", version: "1" } },
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"protocolVersion":"2025-06-18"');
  });

  it("lists exactly the agent's offer (the policy's deny holds)", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(expect.arrayContaining(["add", "blocked", "charge", "subscribe"]));
    expect(names).not.toContain("hidden");
    const offered = (await server.api("GET", "/v1/agents/gateway/tools")).body as {
      offered: string[];
      system: string[];
    };
    expect(names).toEqual([...offered.offered, ...offered.system].sort());
    expect(tools.find((t) => t.name === "add")?.inputSchema).toMatchObject({
      type: "object",
      required: ["a", "b"],
    });
  });

  it("calls a tool with ctx from the MCP session and the key, and records it in the session's trace", async () => {
    const { client, transport } = await connect();
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(result.isError).toBeFalsy();
    const sessionId = transport.sessionId!;
    expect(result.structuredContent).toEqual({ sum: 5, chat: sessionId, tenant: "acme" });
    const trace = (await server.api("GET", `/v1/sessions/${sessionId}/trace`)).body;
    expect(trace.agent_id).toBe("gateway");
    const turn = trace.turns.at(-1);
    expect(turn).toMatchObject({ status: "completed", user_message: "MCP tools/call add" });
    expect(turn.events.map((e: { type: string }) => e.type)).toEqual([
      "turn_started",
      "tool_call",
      "tool_result",
      "turn_completed",
    ]);
    expect(turn.calls[0]).toMatchObject({ tool: "add", ok: true, arguments: { a: 2, b: 3 }, status: 200 });
    // The key sees its own session (turns:run, its agent and tenant).
    const asKey = await fetch(`${server.url}/v1/sessions/${sessionId}/trace`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(asKey.status).toBe(200);
  });

  it("answers bad arguments with the turn's path-named error as an isError result", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "add", arguments: { a: "two", b: 3 } });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/^a: expected an integer/);
    const missing = await client.callTool({ name: "add", arguments: { a: 1 } });
    expect(texts(missing)[0]).toContain("missing required parameter(s): b");
  });

  it("answers an unknown or denied tool as an isError result naming it", async () => {
    const { client } = await connect();
    for (const name of ["hidden", "nope", "__proto__"]) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBe(true);
      expect(texts(result)[0]).toContain(`unknown tool: ${name}`);
    }
  });

  it("refuses a destination the egress guard blocks, as an isError result", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "blocked", arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toContain("destination blocked");
  });

  it("reflects halt_when in the result and ends the call's turn halted", async () => {
    const { client, transport } = await connect();
    const result = await client.callTool({ name: "subscribe", arguments: { path: "/news" } });
    expect(result.isError).toBeFalsy();
    expect(result._meta?.["io.insika/halt"]).toMatchObject({ say: "You are subscribed." });
    expect(texts(result)[1]).toContain("halted:");
    const trace = (await server.api("GET", `/v1/sessions/${transport.sessionId}/trace`)).body;
    expect(trace.turns.at(-1)).toMatchObject({ status: "halted", content: "You are subscribed." });
  });

  it("waits for an approval with progress, and runs the call once approved", async () => {
    const { client, transport } = await connect();
    const progress: number[] = [];
    const call = client.callTool({ name: "charge", arguments: { key: "mcp-ap" } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
      resetTimeoutOnProgress: true,
    });
    const approval = await pendingApproval(transport.sessionId!);
    await sleep(1_300); // long enough for a progress notification
    expect(backend.requests.filter((r) => r.url === "/charge")).toHaveLength(0);
    expect((await server.api("POST", `/v1/approvals/${approval.id}`, { decision: "approved" })).status).toBe(200);
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ charged: "mcp-ap" });
    expect(progress.length).toBeGreaterThan(0);
    const turn = (await server.api("GET", `/v1/sessions/${transport.sessionId}/trace`)).body.turns.at(-1);
    expect(turn.events.map((e: { type: string }) => e.type)).toEqual([
      "turn_started",
      "tool_call",
      "approval_requested",
      "approval_resolved",
      "tool_result",
      "turn_completed",
    ]);
  });

  it("answers a rejection as an isError result naming the operator's note, without calling", async () => {
    const { client, transport } = await connect();
    const call = client.callTool({ name: "charge", arguments: { key: "mcp-rj" } });
    const approval = await pendingApproval(transport.sessionId!);
    const decided = await server.api("POST", `/v1/approvals/${approval.id}`, {
      decision: "rejected",
      note: "too expensive",
    });
    expect(decided.status).toBe(200);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toBe("rejected by operator: too expensive");
    expect(backend.requests.filter((r) => r.body.includes("mcp-rj"))).toHaveLength(0);
  });

  it("asks through elicitation when the client declares it", async () => {
    const { client } = await connect({ elicitation: true });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: false, note: "not today" } };
    });
    const result = await client.callTool({ name: "charge", arguments: { key: "mcp-el" } });
    expect(asked[0]).toContain("charge");
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toBe("rejected by operator: not today");
  });

  it("sends notifications/tools/list_changed after a catalog write and a policy change", async () => {
    const { client } = await connect();
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void (changes += 1));
    await sleep(300); // the standalone SSE stream opens after initialized
    const put = await server.api("PUT", "/v1/tools/newcomer", {
      name: "newcomer",
      description: "a new tool",
      request: { method: "GET", url: `${backend.url}/add` },
    });
    expect(put.status).toBe(201);
    const deadline = Date.now() + 5_000;
    while (changes === 0 && Date.now() < deadline) await sleep(100);
    expect(changes).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("newcomer");
    const policy = await server.api("PUT", "/v1/agents/gateway", {
      name: "Gateway",
      model: { provider: "demo", model: "demo" },
      tools_deny: ["hidden", "newcomer"],
      approvals: ["charge"],
    });
    expect(policy.status).toBe(200);
    const later = Date.now() + 5_000;
    while (changes === 1 && Date.now() < later) await sleep(100);
    expect(changes).toBe(2);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("newcomer");
  });

  it("sends notifications/prompts/list_changed when one of the agent's skills changes", async () => {
    expect(
      (await server.api("PUT", "/v1/skills/refunds", { description: "how refunds go", body: "v1" })).status,
    ).toBeLessThan(300);
    const skilled = await server.api("PUT", "/v1/agents/skilled", {
      model: { provider: "demo", model: "demo" },
      skills: ["refunds"],
    });
    expect(skilled.status).toBeLessThan(300);
    const { client } = await connect({ token: server.token, agent: "skilled" });
    expect((await client.listPrompts()).prompts).toEqual([{ name: "refunds", description: "how refunds go" }]);
    expect((await client.getPrompt({ name: "refunds" })).messages[0]?.content).toEqual({ type: "text", text: "v1" });
    await expect(client.getPrompt({ name: "other" })).rejects.toThrow(/unknown prompt: other/);
    let changes = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () => void (changes += 1));
    await sleep(300);
    await server.api("PUT", "/v1/skills/refunds", { description: "how refunds go", body: "v2" });
    const deadline = Date.now() + 5_000;
    while (changes === 0 && Date.now() < deadline) await sleep(100);
    expect(changes).toBe(1);
  });

  it(
    "serves a session id this process does not hold (a revived session), and 404s an unknown one",
    { timeout: 90_000 },
    async () => {
      const { transport } = await connect();
      const sessionId = transport.sessionId!;
      const post = (sid: string, body: unknown) =>
        fetch(endpoint(), {
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-session-id": sid,
            "mcp-protocol-version": "2025-11-25",
          },
          body: JSON.stringify(body),
        });
      const ended = await connect();
      const endedId = ended.transport.sessionId!;
      await ended.transport.terminateSession();
      expect((await post(endedId, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(404);
      expect((await server.api("GET", `/v1/sessions/${endedId}`)).status).toBe(200); // its history stays
      const unknown = await post("mcp_nope", { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(unknown.status).toBe(404);
      const ses = await post("ses_other", { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(ses.status).toBe(404);
      // After a restart no transport is held: the same session is served again.
      const started = Date.now();
      await server.restart();
      expect(Date.now() - started).toBeLessThan(20_000); // open SSE streams do not hold the shutdown
      const listed = await post(sessionId, { jsonrpc: "2.0", id: 7, method: "tools/list" });
      expect(listed.status).toBe(200);
      expect(await listed.text()).toContain('"name":"add"');
    },
  );

  it("offers deferred tools through tool_search, and calls one found there by name", async () => {
    const put = await server.api("PUT", "/v1/agents/deferring", {
      name: "Deferring",
      model: { provider: "demo", model: "demo" },
      tools_allow: ["add", "subscribe"],
      tools_deferred: ["add"],
    });
    expect(put.status).toBeLessThan(300);
    const admin = await connect({ token: server.token, agent: "deferring" });
    const names = (await admin.client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(["subscribe", "tool_search"]);
    const found = await admin.client.callTool({ name: "tool_search", arguments: { query: "add two integers" } });
    expect(JSON.stringify(found.structuredContent ?? found.content)).toContain('"add"');
    const added = await admin.client.callTool({ name: "add", arguments: { a: 1, b: 1 } });
    expect(added.structuredContent).toMatchObject({ sum: 2 });
  });

  it(
    "ends a call its process died in as failed (resume_failed) instead of handing it to a model",
    { timeout: 60_000 },
    async () => {
      const { client, transport } = await connect();
      const sessionId = transport.sessionId!;
      void client.callTool({ name: "charge", arguments: { key: "mcp-killed" } }).catch(() => undefined);
      const approval = await pendingApproval(sessionId);
      await server.stop("SIGKILL");
      await server.restart();
      const deadline = Date.now() + 20_000;
      let turn: { status: string; error: string | null; events: { type: string; code?: string }[] } | undefined;
      while (Date.now() < deadline) {
        turn = (await server.api("GET", `/v1/sessions/${sessionId}/trace`)).body.turns.at(-1);
        if (turn && turn.status !== "running") break;
        await sleep(200);
      }
      expect(turn).toMatchObject({ status: "failed", error: expect.stringContaining("MCP calls are not resumed") });
      expect(turn!.events.at(-1)).toMatchObject({ type: "turn_failed", code: "resume_failed" });
      expect(backend.requests.filter((r) => r.body.includes("mcp-killed"))).toHaveLength(0);
      expect((await server.api("GET", `/v1/approvals/${approval.id}`)).status).toBe(200);
    },
  );

  it("refuses a wrong key (401), a key without turns:run or for another agent (403)", async () => {
    await expect(connect({ token: "insk_wrong" })).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining("unknown API key"),
    });
    const reader = await server.api("POST", "/v1/keys", { name: "reader", scopes: ["traces:read"] });
    await expect(connect({ token: reader.body.key })).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining("needs scope turns:run"),
    });
    await expect(connect({ agent: "other" })).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining("may not use agent 'other'"),
    });
    const missing = await fetch(endpoint(), { method: "POST", body: "{}" });
    expect(missing.status).toBe(401);
  });

  it("answers hostile and malformed requests with clear errors, never a 500", async () => {
    const headers = {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const post = (body: string, extra: Record<string, string> = {}) =>
      fetch(endpoint(), { method: "POST", headers: { ...headers, ...extra }, body });
    const notJson = await post("{not json");
    expect(notJson.status).toBe(400);
    expect(await notJson.text()).toContain("bad_json");
    const noInit = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect(noInit.status).toBe(400);
    expect(await noInit.text()).toMatch(/not initialized|Mcp-Session-Id/i);
    const batchInit = await post(
      JSON.stringify([
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
        },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ]),
    );
    expect(batchInit.status).toBeGreaterThanOrEqual(400);
    expect(batchInit.status).toBeLessThan(500);
    const huge = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { x: "a".repeat(2 * 1024 * 1024) } }),
    );
    expect(huge.status).toBe(413);
    const get = await fetch(endpoint(), { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" } });
    expect(get.status).toBe(400);
    const del = await fetch(endpoint(), {
      method: "DELETE",
      headers: { authorization: `Bearer ${key}`, "mcp-session-id": "mcp_gone" },
    });
    expect(del.status).toBe(404);
    const put = await fetch(endpoint(), { method: "PUT", headers: { authorization: `Bearer ${key}` } });
    expect(put.status).toBe(405);
    const unknownAgent = await fetch(endpoint("nobody"), { method: "POST", headers, body: "{}" });
    expect(unknownAgent.status).toBe(404);
  });

  it("writes no session for an initialize the transport refuses (400, 415, 406), and one for an accepted one", async () => {
    // An agent of its own, so its session count is this test's alone.
    expect(
      (await server.api("PUT", "/v1/agents/refusals", { model: { provider: "demo", model: "demo" } })).status,
    ).toBeLessThan(300);
    const own = await server.api("POST", "/v1/keys", { name: "refusals", scopes: ["turns:run"], agents: ["refusals"] });
    const sessions = async () =>
      ((await server.api("GET", "/v1/sessions?agent_id=refusals")).body.sessions as { id: string }[]).map((s) => s.id);
    const initialize = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(endpoint("refusals"), {
        method: "POST",
        headers: {
          authorization: `Bearer ${own.body.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const refusals: [() => Promise<Response>, number, string][] = [
      [() => post([initialize(1), initialize(2)]), 400, "Only one initialization request is allowed"],
      [() => post(initialize(1), { "content-type": "text/plain" }), 415, "Content-Type must be application/json"],
      [() => post(initialize(1), { accept: "application/json" }), 406, "Not Acceptable"],
    ];
    for (const [send, status, message] of refusals) {
      const before = await sessions();
      const res = await send();
      expect(res.status).toBe(status);
      expect(await res.text()).toContain(message);
      expect(await sessions()).toEqual(before);
    }
    expect(await sessions()).toEqual([]);

    const accepted = await post(initialize(1));
    expect(accepted.status).toBe(200);
    await accepted.body?.cancel();
    expect(await sessions()).toEqual([accepted.headers.get("mcp-session-id")]);
  });

  it("does not let another tenant's key use a session (404, its existence not revealed)", async () => {
    const { transport } = await connect();
    const other = await server.api("POST", "/v1/keys", {
      name: "other tenant",
      scopes: ["turns:run"],
      agents: ["gateway"],
      tenant: "globex",
    });
    const res = await fetch(endpoint(), {
      method: "POST",
      headers: {
        authorization: `Bearer ${other.body.key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "add", arguments: { a: 1, b: 2 } },
      }),
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Session not found");
  });

  it("refuses a DNS-rebinding Host or Origin with 403", async () => {
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    const headers = {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const evilOrigin = await fetch(endpoint(), {
      method: "POST",
      headers: { ...headers, origin: "http://evil.example.com" },
      body: init,
    });
    expect(evilOrigin.status).toBe(403);
    const { rawRequest } = await import("../support/raw-request");
    const evilHost = await rawRequest(server.port, {
      method: "POST",
      path: "/v1/agents/gateway/mcp",
      headers: { ...headers, host: "evil.example.com" },
      body: Buffer.from(init),
    });
    expect(evilHost.status).toBe(403);
  });
});
