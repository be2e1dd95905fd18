import { sql } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDb } from "../support/test-database";
import { runCli, startServer, type TestServer } from "../support/server";

const good = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} tool`,
  parameters: "q | string | required | what to look for",
  request: { method: "GET", url: "https://api.example.com/search", query: { q: "{{q}}" } },
  ...extra,
});

describe("the tool write paths against the real server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      env: {
        INSIKA_MANIFEST_ENV: "INSIKA_TEST_API, INSIKA_TEST_BASE",
        INSIKA_TEST_API: "https://api.example.com",
        INSIKA_TEST_HIDDEN: "https://hidden.example.com",
      },
    });
  });
  afterAll(async () => server?.stop());

  it("refuses every /v1 route without the token but serves health", async () => {
    const res = await fetch(`${server.url}/v1/tools`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("unauthorized");
    const wrong = await server.api("GET", "/v1/tools", undefined, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    const health = await fetch(`${server.url}/v1/health`);
    expect(await health.json()).toMatchObject({ ok: true });
  });

  it("ingests a manifest with good and bad tools: exact created, updated and errors", async () => {
    const manifest = {
      version: 7,
      defaults: { group: "catalog", timeout: 12 },
      tools: [
        good("m_one"),
        good("m_two", { request: { method: "POST", url: "ftp://files.example.com/x" } }),
        { name: "Bad-Name", description: "x", request: { method: "GET", url: "https://a.example" } },
        good("calculate"),
        good("m_three", { parameters: "tags | array | optional | labels" }),
        good("m_one"),
        "not an object",
      ],
    };
    const first = await server.api("POST", "/v1/tools/manifest", manifest);
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(7);
    expect(first.body.created).toEqual(["m_one"]);
    expect(first.body.updated).toEqual([]);
    expect(first.body.errors.map((e: { index: number }) => e.index)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(first.body.errors[0]).toMatchObject({
      tool: "m_two",
      error: expect.stringContaining("url must be http/https"),
    });
    expect(first.body.errors[2].error).toContain("'calculate' is already a code tool");
    expect(first.body.errors[3].error).toContain("array:string");
    expect(first.body.errors[4].error).toContain("duplicate");

    const detail = await server.api("GET", "/v1/tools/m_one");
    expect(detail.body).toMatchObject({ name: "m_one", group: "catalog", timeout: 12, side_effect: false, version: 1 });
    expect(detail.body.parameters).toEqual({
      type: "object",
      properties: { q: { type: "string", description: "what to look for" } },
      required: ["q"],
    });

    const again = await server.api("POST", "/v1/tools/manifest", { tools: [good("m_one")] });
    expect(again.body).toEqual({ version: 1, created: [], updated: ["m_one"], errors: [], dialect_problems: [] });
  });

  it("fails the whole manifest only for a structural error, writing nothing", async () => {
    const bad = await server.api("POST", "/v1/tools/manifest", { tools: { a: 1 } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain("tools");
    const badDefaults = await server.api("POST", "/v1/tools/manifest", {
      defaults: [],
      tools: [good("never_written")],
    });
    expect(badDefaults.status).toBe(422);
    expect((await server.api("GET", "/v1/tools/never_written")).status).toBe(404);
    const notJson = await server.api("POST", "/v1/tools/manifest", "{not json");
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe("bad_json");
  });

  it("substitutes {{env.*}} on the manifest path only, and only the variables INSIKA_MANIFEST_ENV exposes", async () => {
    const viaManifest = await server.api("POST", "/v1/tools/manifest", {
      tools: [
        good("env_tool", { request: { method: "GET", url: "{{env.INSIKA_TEST_BASE}}/x" } }),
        good("env_exposed", { request: { method: "GET", url: "{{env.INSIKA_TEST_API}}/x" } }),
        good("env_hidden", { request: { method: "GET", url: "{{env.INSIKA_TEST_HIDDEN}}/x" } }),
        good("env_path", { request: { method: "GET", url: "https://api.example.com/{{env.PATH}}" } }),
      ],
    });
    expect(viaManifest.body.created).toEqual(["env_exposed"]);
    expect(viaManifest.body.errors).toEqual([
      {
        index: 0,
        tool: "env_tool",
        error: expect.stringContaining("environment variable INSIKA_TEST_BASE is not set"),
      },
      {
        index: 2,
        tool: "env_hidden",
        error: expect.stringContaining(
          "INSIKA_TEST_HIDDEN is not exposed to manifests (list it in INSIKA_MANIFEST_ENV",
        ),
      },
      { index: 3, tool: "env_path", error: expect.stringContaining("PATH is not exposed to manifests") },
    ]);
    expect((await server.api("GET", "/v1/tools/env_exposed")).body.request.url).toBe("https://api.example.com/x");
    const viaPut = await server.api(
      "PUT",
      "/v1/tools/env_put",
      good("env_put", { request: { method: "GET", url: "{{env.HOME}}/x" } }),
    );
    expect(viaPut.status).toBe(422);
    expect(viaPut.body.error.message).toContain("url must be http/https");
  });

  it("creates, replaces, versions and deletes a tool with PUT and DELETE", async () => {
    const created = await server.api("PUT", "/v1/tools/p_tool", good("p_tool"));
    expect(created.status).toBe(201);
    const replaced = await server.api("PUT", "/v1/tools/p_tool", { ...good("p_tool"), description: "second" });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ description: "second", version: 2 });
    const mismatch = await server.api("PUT", "/v1/tools/p_tool", good("other_name"));
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.message).toContain("differs from the path");
    const unknownField = await server.api("PUT", "/v1/tools/p_tool", { ...good("p_tool"), colour: "red" });
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.error.message).toContain("colour");
    const code = await server.api("PUT", "/v1/tools/current_time", good("current_time"));
    expect(code.status).toBe(422);
    expect(code.body.error.message).toContain("'current_time' is already a code tool");

    const versions = await server.api("GET", "/v1/tools/p_tool/versions");
    expect(versions.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);

    expect((await server.api("DELETE", "/v1/tools/current_time")).status).toBe(409);
    expect((await server.api("DELETE", "/v1/tools/p_tool")).status).toBe(200);
    expect((await server.api("DELETE", "/v1/tools/p_tool")).status).toBe(404);
    expect((await server.api("GET", "/v1/tools/p_tool")).status).toBe(404);
  });

  it("keeps at least 20 versions of a tool", async () => {
    for (let i = 0; i < 23; i++) {
      await server.api("PUT", "/v1/tools/many_versions", { ...good("many_versions"), description: `v${i}` });
    }
    const versions = await server.api("GET", "/v1/tools/many_versions/versions");
    expect(versions.body.versions.length).toBeGreaterThanOrEqual(20);
    expect(versions.body.versions[0]).toMatchObject({ version: 23, definition: { description: "v22" } });
  });

  it("lists code tools and reports a stored tool that no longer validates as dropped", async () => {
    await server.api("PUT", "/v1/tools/soon_dropped", good("soon_dropped"));
    const db = openServerDb(server);
    const [row] = await db.execute<{ definition: string }>(
      sql`select definition from tools where name = ${"soon_dropped"}`,
    );
    const def = JSON.parse(row!.definition);
    def.request.method = "TRACE";
    await db.execute(sql`update tools set definition = ${JSON.stringify(def)} where name = ${"soon_dropped"}`);
    await db.execute(
      sql`update settings set value = cast(cast(value as bigint) + 1 as text) where key = 'catalog_version'`,
    );
    await db.close();

    const list = await server.api("GET", "/v1/tools");
    const byName = new Map(list.body.tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.get("current_time")).toMatchObject({ kind: "code", editable: false, status: "ok" });
    expect(byName.get("soon_dropped")).toMatchObject({
      kind: "data",
      status: "dropped",
      problem: expect.stringContaining("method"),
    });

    const doctor = await server.api("GET", "/v1/doctor");
    const tools = doctor.body.checks.find((c: { name: string }) => c.name === "data-tools");
    expect(tools.status).toBe("error");
    expect(tools.items.join("\n")).toContain("soon_dropped");
  });

  it("refuses a manifest of more than 10,000 tools with 413, writing nothing", async () => {
    // Small entries keep the body far below any byte cap: the count alone is refused.
    const tools = Array.from({ length: 10_001 }, (_, i) => (i === 0 ? good("too_many_0") : {}));
    const res = await server.api("POST", "/v1/tools/manifest", { tools });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: "payload_too_large",
      message: expect.stringContaining("at most 10000"),
      details: { limit: 10_000, count: 10_001 },
    });
    expect((await server.api("GET", "/v1/tools/too_many_0")).status).toBe(404);
  });

  it("refuses literal credentials in headers on PUT, the manifest and MCP import, pointing to {{secret.*}}", async () => {
    const literal = good("literal_auth", {
      request: { method: "GET", url: "https://api.example.com/x", headers: { Authorization: "Bearer abc123" } },
    });
    const put = await server.api("PUT", "/v1/tools/literal_auth", literal);
    expect(put.status).toBe(422);
    expect(put.body.error.message).toMatch(/^request\.headers\.Authorization: 'Authorization' carries a credential/);
    expect(put.body.error.message).toContain("{{secret.api_token}}");
    expect((await server.api("GET", "/v1/tools/literal_auth")).status).toBe(404);

    const manifest = await server.api("POST", "/v1/tools/manifest", {
      tools: [
        good("literal_key", {
          request: { method: "GET", url: "https://api.example.com/x", headers: { "X-Api-Key": "k-123" } },
        }),
      ],
    });
    expect(manifest.body.errors).toEqual([
      {
        index: 0,
        tool: "literal_key",
        error: expect.stringContaining("request.headers.X-Api-Key: 'X-Api-Key' carries a credential"),
      },
    ]);

    const mcp = await server.api("POST", "/v1/mcp/import", {
      name: "lit",
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "Bearer abc123" },
    });
    expect(mcp.status).toBe(422);
    expect(mcp.body.error.message).toContain("headers.Authorization: 'Authorization' carries a credential");
  });

  it("lists the system tools as read-only code tools and answers GET, DELETE and test calls for them", async () => {
    const list = await server.api("GET", "/v1/tools");
    const system = list.body.tools.filter((t: { system?: boolean }) => t.system);
    expect(system.map((t: { name: string }) => t.name)).toEqual([
      "tool_search",
      "load_skill",
      "remember",
      "spawn_subagent",
      "spawn_subagents",
    ]);
    for (const t of system)
      expect(t).toMatchObject({
        kind: "code",
        editable: false,
        status: "ok",
        offered_when: expect.stringMatching(/^when /),
      });

    const one = await server.api("GET", "/v1/tools/tool_search");
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      name: "tool_search",
      kind: "code",
      system: true,
      side_effect: false,
      parameters: { required: ["query"] },
      offered_when: expect.stringContaining("deferred"),
    });
    const del = await server.api("DELETE", "/v1/tools/remember");
    expect(del.status).toBe(409);
    expect(del.body.error.message).toContain("system tool");
    const tried = await server.api("POST", "/v1/tools/load_skill/test", { arguments: { name: "x" } });
    expect(tried.status).toBe(409);
    const collide = await server.api("PUT", "/v1/tools/spawn_subagent", good("spawn_subagent"));
    expect(collide.status).toBe(422);
    expect(collide.body.error.message).toContain("'spawn_subagent' is already a code tool");
  });

  it("refuses a pattern the linear engine cannot run, and a hostile pattern never stalls the server", async () => {
    const backref = await server.api(
      "PUT",
      "/v1/tools/backref",
      good("backref", { parameters: { type: "object", properties: { q: { type: "string", pattern: "^(a)\\1$" } } } }),
    );
    expect(backref.status).toBe(422);
    expect(backref.body.error.message).toContain("parameters.properties.q: 'pattern' uses the backreference \\1");

    const hostile = "^(\\w+\\s?)*$";
    const put = await server.api(
      "PUT",
      "/v1/tools/hostile_pattern",
      good("hostile_pattern", {
        parameters: { type: "object", properties: { q: { type: "string", pattern: hostile } }, required: ["q"] },
      }),
    );
    expect(put.status).toBe(201);
    // Each call fails validation (never sent); with a backtracking engine one of them blocked the event loop for 92 s.
    const calls = Array.from({ length: 4 }, (_, i) =>
      server.api("POST", "/v1/tools/hostile_pattern/test", { arguments: { q: `${"a".repeat(32 + i * 20_000)}!` } }),
    );
    const health = (async () => {
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        const res = await fetch(`${server.url}/v1/health`, { signal: AbortSignal.timeout(10_000) });
        expect(res.status).toBe(200);
        latencies.push(Date.now() - started);
      }
      return latencies;
    })();
    const [results, latencies] = await Promise.all([Promise.all(calls), health]);
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        ok: false,
        status: null,
        error: expect.stringContaining("must match the pattern"),
      });
    }
    // A generous bound: health answers within 2 s while the hostile calls run.
    expect(Math.max(...latencies)).toBeLessThan(2_000);
  });

  it("stores agents and answers which tools a turn is offered", async () => {
    await server.api("PUT", "/v1/tools/g_one", good("g_one", { group: "alpha" }));
    await server.api("PUT", "/v1/tools/g_two", good("g_two", { group: "alpha" }));
    const put = await server.api("PUT", "/v1/agents/picky", {
      model: { provider: "demo", model: "demo" },
      tools_allow: ["current_time"],
      tools_allow_groups: ["alpha"],
      tools_deny: ["g_two"],
      tools_deferred: ["current_time"],
    });
    expect(put.status).toBe(201);
    const tools = await server.api("GET", "/v1/agents/picky/tools");
    expect(tools.body).toMatchObject({ offered: ["g_one"], deferred: ["current_time"], denied: ["g_two"] });

    const none = await server.api("PUT", "/v1/agents/none", {
      model: { provider: "demo", model: "demo" },
      tools_allow: [],
    });
    expect(none.status).toBe(201);
    expect((await server.api("GET", "/v1/agents/none/tools")).body.offered).toEqual([]);

    const bad = await server.api("PUT", "/v1/agents/bad", {
      model: { provider: "openai-compatible", model: "x" },
      colour: 1,
    });
    expect(bad.status).toBe(422);
    expect((await server.api("GET", "/v1/agents/bad")).status).toBe(404);
  });
});

describe("hot reload across processes and the config file", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startServer();
    b = await startServer({ env: { INSIKA_DATA_DIR: a.dataDir, INSIKA_API_TOKEN: a.token } });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it("sees a write made in another process without a restart", async () => {
    const before = await b.api("GET", "/v1/tools");
    expect(before.body.tools.some((t: { name: string }) => t.name === "cross_proc")).toBe(false);
    await a.api("PUT", "/v1/tools/cross_proc", good("cross_proc"));
    const after = await b.api("GET", "/v1/tools");
    expect(after.body.tools.some((t: { name: string }) => t.name === "cross_proc")).toBe(true);
    await b.api("DELETE", "/v1/tools/cross_proc");
    const gone = await a.api("GET", "/v1/tools");
    expect(gone.body.tools.some((t: { name: string }) => t.name === "cross_proc")).toBe(false);
  });

  it("applies insika.config.ts with `insika apply`, all or nothing", async () => {
    const dir = fs.mkdtempSync(path.join(a.dataDir, "cfg-"));
    const file = path.join(dir, "insika.config.ts");
    fs.writeFileSync(
      file,
      `import { dataTool, defineAgent } from "${path.resolve("lib/config")}";
export default [defineAgent({ id: "from_config", model: { provider: "demo", model: "demo" },
  dataTools: [dataTool({ name: "cfg_tool", description: "from the config", request: { method: "GET", url: "https://api.example.com/x" } })] })];`,
    );
    const applied = runCli(["apply", file], a.env);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await b.api("GET", "/v1/agents/from_config")).status).toBe(200);
    expect((await b.api("GET", "/v1/tools/cfg_tool")).body.description).toBe("from the config");

    fs.writeFileSync(
      file,
      `export default [{ id: "half", model: { provider: "demo", model: "demo" },
  dataTools: [{ name: "half_good", description: "ok", request: { method: "GET", url: "https://a.example/x" } },
              { name: "half_bad", description: "bad", request: { method: "GET", url: "file:///etc/passwd" } }] }];`,
    );
    const refused = runCli(["apply", file], a.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("url must be http/https");
    expect((await a.api("GET", "/v1/tools/half_good")).status).toBe(404);
    expect((await a.api("GET", "/v1/agents/half")).status).toBe(404);
  });
});
