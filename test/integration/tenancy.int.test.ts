/**
 * Keys limited to agents and pinned to tenants, against the real server (issue 16): what a
 * pinned key may create and read, that ctx.tenant comes from the key, memories kept apart by
 * tenant, the per-key rate limit (/v1 and OpenAI-compatible), the official openai client
 * with a turns:run key, and the try-it call's audit record.
 */
import fs from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend as startBackend, type LoopbackBackend as Backend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

const SECRET = "ten-secret-9f8e7d6c5b4a";

describe("tenancy and per-key limits against the real server", () => {
  let server: TestServer;
  let backend: Backend;
  let scripts: string;

  const script = (name: string, steps: unknown) =>
    fs.writeFileSync(path.join(scripts, `${name}.json`), JSON.stringify(steps));
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const newKey = async (body: Record<string, unknown>): Promise<string> => {
    const res = await server.api("POST", "/v1/keys", body);
    expect(res.status).toBe(201);
    return res.body.key as string;
  };
  const tenantsSeen = () => backend.requests.filter((r) => r.url.startsWith("/echo")).map((r) => r.headers["x-tenant"]);

  beforeAll(async () => {
    backend = await startBackend();
    scripts = tempDir("insika-tenancy-scripts-");
    server = await startServer({
      env: {
        INSIKA_SECRET_TEN_KEY: SECRET,
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
      },
    });
    // The backend echoes the secret back: the record must still not carry it.
    backend.route("GET", "/echo", (req) => ({
      body: { tenant: req.headers["x-tenant"] ?? null, key: req.headers["x-key"] ?? null },
    }));
    const tool = await server.api("PUT", "/v1/tools/ten_echo", {
      name: "ten_echo",
      description: "echoes the tenant",
      parameters: "",
      secret_headers: ["X-Key"],
      request: {
        method: "GET",
        url: `${backend.url}/echo`,
        headers: { "X-Tenant": "{{ctx.tenant}}", "X-Key": "{{secret.ten_key}}" },
      },
    });
    expect(tool.status).toBe(201);
    script("ten-a", {
      turns: {
        echo: [[{ type: "tool-call", name: "ten_echo", args: {} }], [{ type: "text", text: "echoed" }]],
        remember: [
          [{ type: "tool-call", name: "remember", args: { text: "likes tea" } }],
          [{ type: "text", text: "noted" }],
        ],
        recall: [[{ type: "text", text: "{{system}}" }]],
      },
      steps: [[{ type: "text", text: "hello from A" }]],
    });
    script("ten-b", [[{ type: "text", text: "hello from B" }]]);
    for (const [id, extra] of [
      ["ten-a", { tools_allow: ["ten_echo"], memory: true }],
      ["ten-b", {}],
    ] as const) {
      expect(
        (
          await server.api("PUT", `/v1/agents/${id}`, {
            model: { provider: "scripted", model: id },
            instructions: "Be brief.",
            ...extra,
          })
        ).status,
      ).toBeLessThan(300);
    }
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
  });

  it("a key pinned to a tenant creates and reads only that tenant's sessions, and its turns run as that tenant", async () => {
    const acme = await newKey({ name: "acme chat", scopes: ["turns:run"], tenant: "acme" });
    const created = await server.api("POST", "/v1/sessions", { agent_id: "ten-a" }, as(acme));
    expect(created.status).toBe(201);
    expect(created.body.tenant).toBe("acme");
    const same = await server.api("POST", "/v1/sessions", { agent_id: "ten-a", tenant: "acme" }, as(acme));
    expect(same.status).toBe(201);
    const forged = await server.api("POST", "/v1/sessions", { agent_id: "ten-a", tenant: "globex" }, as(acme));
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe("forbidden");
    expect(forged.body.error.message).toContain("'acme'");
    expect(forged.body.error.message).toContain("'globex'");

    // ctx.tenant of the turn is the key's: the backend sees it in the header.
    const before = tenantsSeen().length;
    const turn = await server.api("POST", `/v1/sessions/${created.body.id}/turns`, { message: "echo" }, as(acme));
    expect(turn.body).toMatchObject({ status: "completed", content: "echoed" });
    expect(tenantsSeen().slice(before)).toEqual(["acme"]);

    // Another tenant's session (made by the admin) is unknown to the pinned key, everywhere.
    const globex = (await server.api("POST", "/v1/sessions", { agent_id: "ten-a", tenant: "globex" })).body
      .id as string;
    for (const [method, pathname, body] of [
      ["GET", `/v1/sessions/${globex}`, undefined],
      ["GET", `/v1/sessions/${globex}/trace`, undefined],
      ["POST", `/v1/sessions/${globex}/turns`, { message: "echo" }],
    ] as const) {
      const res = await server.api(method, pathname, body, as(acme));
      expect(res.status, `${method} ${pathname}`).toBe(404);
      expect(res.body.error).toEqual({ code: "not_found", message: `session '${globex}' not found` });
    }
    const listed = await server.api("GET", "/v1/sessions", undefined, as(acme));
    expect(listed.status).toBe(200);
    const tenants = new Set((listed.body.sessions as { tenant: string }[]).map((s) => s.tenant));
    expect([...tenants]).toEqual(["acme"]);

    // A traces:read key pinned to acme sees acme only, too.
    const reader = await newKey({ name: "acme reader", scopes: ["traces:read"], tenant: "acme" });
    expect((await server.api("GET", `/v1/sessions/${globex}`, undefined, as(reader))).status).toBe(404);
    expect((await server.api("GET", `/v1/sessions/${created.body.id}/trace`, undefined, as(reader))).status).toBe(200);
    const readerList = (await server.api("GET", "/v1/sessions", undefined, as(reader))).body.sessions as {
      id: string;
      tenant: string;
    }[];
    expect(readerList.map((s) => s.id)).toContain(created.body.id);
    expect(readerList.every((s) => s.tenant === "acme")).toBe(true);
    // The resume of a turn it may not see is a 404 too.
    const adminTurn = await server.api("POST", `/v1/sessions/${globex}/turns`, { message: "echo" });
    expect((await server.api("POST", `/v1/turns/${adminTurn.body.turn_id}/resume`, undefined, as(acme))).status).toBe(
      404,
    );
  });

  it("a turns:run key for agent A cannot create a session for B (403) nor read B's sessions (404)", async () => {
    const chat = await newKey({ name: "a only", scopes: ["turns:run"], agents: ["ten-a"] });
    const refused = await server.api("POST", "/v1/sessions", { agent_id: "ten-b" }, as(chat));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect(refused.body.error.message).toContain("'ten-b'");
    const bSession = (await server.api("POST", "/v1/sessions", { agent_id: "ten-b" })).body.id as string;
    expect((await server.api("GET", `/v1/sessions/${bSession}`, undefined, as(chat))).status).toBe(404);
    expect((await server.api("GET", `/v1/sessions/${bSession}/trace`, undefined, as(chat))).status).toBe(404);
    const listed = (await server.api("GET", "/v1/sessions", undefined, as(chat))).body.sessions as {
      agent_id: string;
    }[];
    expect(listed.every((s) => s.agent_id === "ten-a")).toBe(true);
    expect((await server.api("GET", "/v1/sessions?agent_id=ten-b", undefined, as(chat))).body.sessions).toEqual([]);
    // Approvals are not a turns:run key's to see or decide.
    expect((await server.api("GET", "/v1/approvals", undefined, as(chat))).status).toBe(403);
  });

  it("a turn of tenant A remembers; a turn of tenant B of the same agent does not see it", async () => {
    const a = await newKey({ name: "mem a", scopes: ["turns:run"], tenant: "mem-a" });
    const b = await newKey({ name: "mem b", scopes: ["turns:run"], tenant: "mem-b" });
    const sa = (await server.api("POST", "/v1/sessions", { agent_id: "ten-a" }, as(a))).body.id as string;
    expect((await server.api("POST", `/v1/sessions/${sa}/turns`, { message: "remember" }, as(a))).body.status).toBe(
      "completed",
    );
    const sa2 = (await server.api("POST", "/v1/sessions", { agent_id: "ten-a" }, as(a))).body.id as string;
    expect(
      (await server.api("POST", `/v1/sessions/${sa2}/turns`, { message: "recall" }, as(a))).body.content,
    ).toContain("likes tea");
    const sb = (await server.api("POST", "/v1/sessions", { agent_id: "ten-a" }, as(b))).body.id as string;
    const recall = await server.api("POST", `/v1/sessions/${sb}/turns`, { message: "recall" }, as(b));
    expect(recall.body.content).toContain("Be brief.");
    expect(recall.body.content).not.toContain("likes tea");
  });

  it("refuses the turn past a key's turns_per_minute with 429 and Retry-After, on /v1 and in OpenAI's shape", async () => {
    const limited = await newKey({ name: "limited", scopes: ["turns:run"], turns_per_minute: 2 });
    const session = (await server.api("POST", "/v1/sessions", { agent_id: "ten-b" }, as(limited))).body.id as string;
    for (let i = 0; i < 2; i++)
      expect(
        (await server.api("POST", `/v1/sessions/${session}/turns`, { message: `hi ${i}` }, as(limited))).status,
      ).toBe(200);
    const third = await server.api("POST", `/v1/sessions/${session}/turns`, { message: "one too many" }, as(limited));
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe("rate_limited");
    const retry = Number(third.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(third.body.error.details.retry_after_s).toBe(retry);
    // Nothing was recorded for the refused turn.
    expect((await server.api("GET", `/v1/sessions/${session}`)).body.turns).toHaveLength(2);
    // Another key is not slowed down by this one.
    expect((await server.api("POST", `/v1/sessions/${session}/turns`, { message: "admin" })).status).toBe(200);

    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: limited, maxRetries: 0 });
    const before = (await server.api("GET", "/v1/sessions?agent_id=ten-b")).body.sessions.length as number;
    const error = await client.chat.completions
      .create({ model: "ten-b", messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rate = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rate.status).toBe(429);
    expect(rate.type).toBe("requests");
    expect(rate.code).toBe("rate_limit_exceeded");
    expect(Number(rate.headers?.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Refused before a session was made for it.
    expect((await server.api("GET", "/v1/sessions?agent_id=ten-b")).body.sessions.length).toBe(before);
  });

  it("the official openai client with a turns:run key chats with its agent and gets PermissionDeniedError for another", async () => {
    const chat = await newKey({ name: "oc chat", scopes: ["turns:run"], agents: ["ten-b"], tenant: "oc" });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: chat, maxRetries: 0 });
    const { data, response } = await client.chat.completions
      .create({ model: "ten-b", messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe("hello from B");
    const sessionId = response.headers.get("x-insika-session") ?? "";
    expect((await server.api("GET", `/v1/sessions/${sessionId}`)).body.tenant).toBe("oc");
    // Its turn row records the key: the chat key reads its own history.
    expect((await server.api("GET", `/v1/sessions/${sessionId}`, undefined, as(chat))).status).toBe(200);

    const denied = await client.chat.completions
      .create({ model: "ten-a", messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((denied as InstanceType<typeof OpenAI.PermissionDeniedError>).type).toBe("permission_error");
    const unknownAgent = await client.chat.completions
      .create({ model: "no-such-agent", messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(unknownAgent).toBeInstanceOf(OpenAI.PermissionDeniedError); // existence not revealed

    // Continuing another tenant's session by header is a 404 in OpenAI's shape.
    const other = (await server.api("POST", "/v1/sessions", { agent_id: "ten-b", tenant: "elsewhere" })).body
      .id as string;
    const hidden = await client.chat.completions
      .create(
        { model: "ten-b", messages: [{ role: "user", content: "hi" }] },
        { headers: { "X-Insika-Session": other } },
      )
      .catch((e: unknown) => e);
    expect(hidden).toBeInstanceOf(OpenAI.NotFoundError);
    expect((hidden as InstanceType<typeof OpenAI.NotFoundError>).code).toBe("session_not_found");
    const responses = await client.responses.create({ model: "ten-a", input: "hi" }).catch((e: unknown) => e);
    expect(responses).toBeInstanceOf(OpenAI.PermissionDeniedError);
  });

  it("a try-it call leaves an audit record (who, ctx, the masked call record); a pinned key runs it as its tenant", async () => {
    const writer = await newKey({ name: "tool writer", scopes: ["tools:write"], tenant: "try" });
    const res = await server.api("POST", "/v1/tools/ten_echo/test", { arguments: {} }, as(writer));
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const forged = await server.api(
      "POST",
      "/v1/tools/ten_echo/test",
      { arguments: {}, ctx: { tenant: "victim" } },
      as(writer),
    );
    expect(forged.status).toBe(403);
    const audit = await server.api("GET", "/v1/audit?target=tool:ten_echo");
    const entry = (
      audit.body.entries as {
        action: string;
        actor: { name: string };
        summary: { ctx: { tenant?: string }; call: { call_id: string } };
      }[]
    ).find((e) => e.action === "tool.test");
    expect(entry).toBeDefined();
    expect(entry!.actor.name).toBe("tool writer");
    expect(entry!.summary.ctx.tenant).toBe("try");
    expect(entry!.summary.call.call_id).toBe(res.body.call_id);
    expect(tenantsSeen().at(-1)).toBe("try");
    expect(backend.requests.at(-1)?.headers["x-key"]).toBe(SECRET); // it was sent...
    expect(JSON.stringify(audit.body)).not.toContain(SECRET); // ...and is masked in the record
  });

  it("a key pinned to a tenant lists, reads and decides only its tenant's approvals; another's is 404 and stays pending", async () => {
    script("ten-ap", [
      [{ type: "tool-call", name: "ten_echo", args: {} }],
      [{ type: "text", text: "approved and echoed" }],
    ]);
    const put = await server.api("PUT", "/v1/agents/ten-ap", {
      model: { provider: "scripted", model: "ten-ap" },
      tools_allow: ["ten_echo"],
      approvals: ["ten_echo"],
    });
    expect(put.status).toBeLessThan(300);
    const waitingIn = async (tenant: string) => {
      const session = (await server.api("POST", "/v1/sessions", { agent_id: "ten-ap", tenant })).body.id as string;
      const turn = await server.api("POST", `/v1/sessions/${session}/turns`, { message: "pay" });
      expect(turn.body.status).toBe("waiting");
      const all = (await server.api("GET", "/v1/approvals?status=pending")).body.approvals as {
        id: string;
        session_id: string;
      }[];
      return all.find((a) => a.session_id === session)!.id;
    };
    const acmeApproval = await waitingIn("ap-acme");
    const globexApproval = await waitingIn("ap-globex");
    const decider = await newKey({ name: "globex approver", scopes: ["approvals:decide"], tenant: "ap-globex" });
    const reader = await newKey({ name: "globex reader", scopes: ["traces:read"], tenant: "ap-globex" });
    const ids = async (key: string, query = "") =>
      ((await server.api("GET", `/v1/approvals${query}`, undefined, as(key))).body.approvals as { id: string }[]).map(
        (a) => a.id,
      );

    for (const key of [decider, reader]) {
      expect(await ids(key)).toEqual([globexApproval]);
      expect(await ids(key, "?status=pending")).toEqual([globexApproval]);
      const other = await server.api("GET", `/v1/approvals/${acmeApproval}`, undefined, as(key));
      expect(other.status).toBe(404);
      expect(other.body.error.code).toBe("not_found");
      expect((await server.api("GET", `/v1/approvals/${globexApproval}`, undefined, as(key))).status).toBe(200);
    }
    // Deciding another tenant's approval is the same 404 as an unknown one, and decides nothing.
    const forged = await server.api("POST", `/v1/approvals/${acmeApproval}`, { decision: "approved" }, as(decider));
    expect(forged.status).toBe(404);
    expect(forged.body.error.message).toBe(
      (
        await server.api("POST", "/v1/approvals/apr_unknown", { decision: "approved" }, as(decider))
      ).body.error.message.replace("apr_unknown", acmeApproval),
    );
    expect((await server.api("GET", `/v1/approvals/${acmeApproval}`)).body.status).toBe("pending");
    const own = await server.api("POST", `/v1/approvals/${globexApproval}`, { decision: "rejected" }, as(decider));
    expect(own.status).toBe(200);
    expect(own.body.status).toBe("rejected");

    // An unpinned approver sees both tenants' approvals.
    const everyone = await newKey({ name: "any approver", scopes: ["approvals:decide"] });
    expect(await ids(everyone)).toEqual(expect.arrayContaining([acmeApproval, globexApproval]));
    const decided = await server.api("POST", `/v1/approvals/${acmeApproval}`, { decision: "approved" }, as(everyone));
    expect(decided.status).toBe(200);
  });

  it("a key pinned to a tenant, admin too, may not manage keys nor read the audit log (both span every tenant)", async () => {
    const pinnedAdmin = await newKey({ name: "acme admin", scopes: ["admin"], tenant: "acme" });
    const victim = await newKey({ name: "globex chat", scopes: ["turns:run"], tenant: "globex" });
    const keys = (await server.api("GET", "/v1/keys")).body.keys as { id: string; name: string }[];
    const victimId = keys.find((k) => k.name === "globex chat")!.id;
    const refusals = [
      // Minting a key without the pin would be a way out of it.
      await server.api("POST", "/v1/keys", { name: "escape", scopes: ["admin"] }, as(pinnedAdmin)),
      await server.api("POST", "/v1/keys", { name: "same", scopes: ["turns:run"], tenant: "acme" }, as(pinnedAdmin)),
      await server.api("GET", "/v1/keys", undefined, as(pinnedAdmin)),
      await server.api("DELETE", `/v1/keys/${victimId}`, undefined, as(pinnedAdmin)),
      await server.api("GET", "/v1/audit", undefined, as(pinnedAdmin)),
      await server.api("GET", "/v1/audit?action=tool.test", undefined, as(pinnedAdmin)),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
      expect(res.body.error.message).toContain("pinned to tenant 'acme'");
      expect(res.body.error.message).toContain("every tenant");
    }
    const after = (await server.api("GET", "/v1/keys")).body.keys as { name: string; status: string }[];
    expect(after.filter((k) => k.name === "escape" || k.name === "same")).toEqual([]);
    expect(after.find((k) => k.name === "globex chat")!.status).toBe("active");
    // The victim's key still works.
    expect((await server.api("GET", "/v1/sessions", undefined, as(victim))).status).toBe(200);
    // Within its tenant, the pinned admin still does what admin does.
    const own = await server.api("POST", "/v1/sessions", { agent_id: "ten-b" }, as(pinnedAdmin));
    expect(own.status).toBe(201);
    expect(own.body.tenant).toBe("acme");
  });

  it("another tenant's turn is unknown to a pinned key: its events, and previous_response_id on /v1/responses", async () => {
    const acme = await newKey({ name: "acme ev", scopes: ["turns:run", "traces:read"], tenant: "ev-acme" });
    const globex = await newKey({ name: "globex ev", scopes: ["turns:run", "traces:read"], tenant: "ev-globex" });
    const session = (await server.api("POST", "/v1/sessions", { agent_id: "ten-b" }, as(acme))).body.id as string;
    const turn = await server.api("POST", `/v1/sessions/${session}/turns`, { message: "hi" }, as(acme));
    expect(turn.body.status).toBe("completed");
    const turnId = turn.body.turn_id as string;
    const mine = await fetch(`${server.url}/v1/turns/${turnId}/events`, { headers: as(acme) });
    expect(mine.status).toBe(200);
    await mine.body?.cancel();
    const hidden = await fetch(`${server.url}/v1/turns/${turnId}/events`, { headers: as(globex) });
    const unknown = await fetch(`${server.url}/v1/turns/turn_nope/events`, { headers: as(globex) });
    expect(hidden.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect((await hidden.json()).error.message).toBe(
      ((await unknown.json()).error.message as string).replace("turn_nope", turnId),
    );

    const client = new OpenAI({ apiKey: globex, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const continued = await client.responses
      .create({ model: "ten-b", input: "and now?", previous_response_id: `resp_${turnId}` })
      .catch((e: unknown) => e);
    expect(continued).toBeInstanceOf(OpenAI.NotFoundError);
    expect((continued as InstanceType<typeof OpenAI.NotFoundError>).message).toContain("previous response not found");
    // Nothing was added to acme's session.
    const transcript = await server.api("GET", `/v1/sessions/${session}`, undefined, as(acme));
    expect(transcript.body.turns).toHaveLength(1);
  });
});
