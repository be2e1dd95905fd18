import { afterEach, describe, expect, it, vi } from "vitest";
import { STRICT_POSTURE } from "@/lib/egress";
import { staticSecrets } from "@/lib/secrets/secret-source";
import type { DataToolDefinition, ToolRequest } from "@/lib/tools/types";
import { executeDataTool, type DataToolResult, type ExecuteDataToolDeps } from "./execute-data-tool";
import { DEV_POSTURE, allowlistPosture, loopbackResolver } from "@/test/support/egress-doubles";
import { dataTool } from "@/test/support/data-tool";
import { json, startLoopbackServer, type LoopbackServer, type LoopbackHandler } from "@/test/support/loopback-server";

const backends: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(backends.splice(0).map((b) => b.close()));
});

async function backend(handler?: LoopbackHandler): Promise<LoopbackServer> {
  const b = await startLoopbackServer(handler);
  backends.push(b);
  return b;
}

const PARAMS = {
  type: "object",
  properties: {
    id: { type: "string" },
    page: { type: "integer" },
    note: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    filters: { type: "object", properties: {} },
    chat_id: { type: "string" },
  },
} as const;

function tool(
  request: Partial<ToolRequest> & { url: string },
  extra: Partial<DataToolDefinition> = {},
): DataToolDefinition {
  return dataTool({
    parameters: PARAMS as unknown as DataToolDefinition["parameters"],
    request: { method: "GET", headers: {}, query: {}, ...request },
    ...extra,
  });
}

const deps = (over: Partial<ExecuteDataToolDeps> = {}): ExecuteDataToolDeps => ({
  posture: DEV_POSTURE,
  secrets: staticSecrets({}),
  callId: "call-1",
  ...over,
});

function errorOf(result: DataToolResult): string {
  expect(result.ok).toBe(false);
  const parsed = JSON.parse(result.content) as { error: string };
  return parsed.error;
}

describe("executeDataTool: before the network", () => {
  it("a call the schema does not allow never reaches the network", async () => {
    const b = await backend();
    const r = await executeDataTool(tool({ url: `${b.origin}/x` }), { page: "two", tags: "a" }, {}, deps());
    expect(b.requests).toHaveLength(0);
    expect(errorOf(r)).toMatch(/page: expected an integer, got the string "two"; tags: expected an array/);
    expect(r.record).toMatchObject({
      call_id: "call-1",
      tool: "test_tool",
      kind: "data",
      request: null,
      status: null,
      ok: false,
    });
    expect(r.record.arguments).toEqual({ page: "two", tags: "a" });
  });

  it.each([
    ["a '..' path value", { url: "/items/{{id}}" }, { id: ".." }, /'\.' or '\.\.' is refused/],
    [
      "a CR/LF header value",
      { url: "/x", headers: { "X-Note": "{{note}}" } },
      { note: "a\r\nX-Evil: 1" },
      /CR, LF or NUL/,
    ],
    [
      "a missing secret",
      { url: "/x", headers: { Authorization: "{{secret.absent}}" } },
      {},
      /secret 'absent' is not provisioned/,
    ],
  ])("refuses %s before any request exists", async (_name, req, args, message) => {
    const b = await backend();
    const t = tool({ ...req, url: `${b.origin}${req.url}` }, { secret_headers: ["Authorization"] });
    const r = await executeDataTool(t, args, {}, deps());
    expect(errorOf(r)).toMatch(message);
    expect(r.record.request).toBeNull();
    expect(b.requests).toHaveLength(0);
  });

  it("an egress refusal (strict posture, plain-http loopback) sends nothing and says why", async () => {
    const b = await backend();
    const r = await executeDataTool(tool({ url: `${b.origin}/x` }), {}, {}, deps({ posture: STRICT_POSTURE }));
    expect(b.requests).toHaveLength(0);
    expect(errorOf(r)).toMatch(/^destination blocked: /);
    expect(r.record.egress).toMatchObject({
      verdict: "blocked",
      rule: expect.any(String),
      hint: expect.stringContaining("INSIKA_EGRESS"),
    });
    expect(r.record.status).toBeNull();
    expect(r.record.request?.url).toBe(`${b.origin}/x`);
  });
});

describe("executeDataTool: the request on the wire", () => {
  it("takes {{ctx.*}} from the turn context, never from a model argument", async () => {
    const b = await backend();
    const t = tool({
      url: `${b.origin}/x`,
      headers: { "X-Session": "{{ctx.chat_id}}" },
      query: { tenant: "{{ctx.tenant}}" },
    });
    const r = await executeDataTool(t, { chat_id: "evil" }, { chat_id: "chat-1", tenant: "acme" }, deps());
    expect(r.ok).toBe(true);
    expect(b.requests[0]?.headers["x-session"]).toBe("chat-1");
    expect(b.requests[0]?.url).toBe("/x?tenant=acme");
  });

  it("parses the built URL once: the guard checks that same object and the send uses it", async () => {
    const b = await backend();
    const t = tool({ url: `${b.origin}/items/{{id}}`, query: { page: "{{page}}" } });
    await executeDataTool(t, { id: "7", page: 2 }, {}, deps()); // warm: the template's analysis is cached
    const parsed: string[] = [];
    const Native = globalThis.URL;
    class CountingUrl extends Native {
      constructor(input: string | URL, base?: string | URL) {
        super(input, base);
        parsed.push(this.href);
      }
    }
    vi.stubGlobal("URL", CountingUrl);
    try {
      const r = await executeDataTool(t, { id: "42", page: 3 }, {}, deps());
      expect(r.ok).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(parsed.filter((href) => href === `${b.origin}/items/42?page=3`)).toHaveLength(1);
    expect(b.requests.at(-1)?.url).toBe("/items/42?page=3");
  });

  it("percent-encodes path and query values (../, ?, #, /, unicode)", async () => {
    const b = await backend();
    const t = tool({ url: `${b.origin}/items/{{id}}/v?note={{note}}`, query: { tags: "{{tags}}" } });
    const r = await executeDataTool(t, { id: "../a?b#c/d", note: "x&y=z#w", tags: ["ü/1", "雪 2"] }, {}, deps());
    expect(r.ok).toBe(true);
    expect(b.requests[0]?.url).toBe("/items/..%2Fa%3Fb%23c%2Fd/v?note=x%26y%3Dz%23w&tags=%C3%BC%2F1&tags=%E9%9B%AA+2");
    expect(r.record.request?.url).toBe(
      `${b.origin}/items/..%2Fa%3Fb%23c%2Fd/v?note=x%26y%3Dz%23w&tags=%C3%BC%2F1&tags=%E9%9B%AA+2`,
    );
  });

  it("sends a JSON body with hostile strings that parses to the expected structure", async () => {
    const b = await backend();
    const t = tool({
      method: "POST",
      url: `${b.origin}/orders`,
      body: {
        order: {
          note: "{{note}}",
          line: 'note="{{note}}"',
          page: "{{page}}",
          tags: "{{tags}}",
          filters: "{{filters}}",
        },
      },
    });
    const note = '"}, "admin": true, "x": {"\\\\ \u0000 ünï 🎉 {{secret.x}} {{ctx.tenant}}';
    const args = { note, page: 7, tags: ["a", '"b"'], filters: { price: { lt: 5 }, q: "\\" } };
    const r = await executeDataTool(t, args, { tenant: "acme" }, deps());
    expect(r.ok).toBe(true);
    const sent = b.requests[0];
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      order: { note, line: `note="${note}"`, page: 7, tags: ["a", '"b"'], filters: args.filters },
    });
  });

  it("follows a redirect and records the hops and the final URL", async () => {
    const b = await backend((req, res) => {
      if (req.url === "/old") res.writeHead(302, { location: "/new" }).end();
      else json(res, { at: req.url });
    });
    const r = await executeDataTool(tool({ url: `${b.origin}/old` }), {}, {}, deps());
    expect(r.content).toBe('{"at":"/new"}');
    expect(r.record.request?.url).toBe(`${b.origin}/new`);
    expect(r.record.redirects).toEqual([{ url: `${b.origin}/old`, status: 302 }]);
    expect(r.record.egress).toEqual({ verdict: "allowed", rule: "allow-private", hint: null });
  });

  it("reaches an allowlisted 127.0.0.1:<port>, and a name through the resolver", async () => {
    const b = await backend();
    const listed = await executeDataTool(
      tool({ url: `${b.origin}/x` }),
      {},
      {},
      deps({ posture: allowlistPosture(`127.0.0.1:${b.port}`) }),
    );
    expect(listed.ok).toBe(true);
    expect(listed.record.egress?.rule).toBe("allowlisted");
    const named = await executeDataTool(
      tool({ url: `http://backend.test:${b.port}/named` }),
      {},
      {},
      deps({ posture: allowlistPosture(`backend.test:${b.port}`), resolver: loopbackResolver("backend.test") }),
    );
    expect(named.ok).toBe(true);
    expect(b.requests.map((r) => r.url)).toEqual(["/x", "/named"]);
    expect(b.requests[1]?.headers.host).toBe(`backend.test:${b.port}`);
  });
});

describe("executeDataTool: results", () => {
  const answer: LoopbackHandler = (req, res) => {
    if (req.url === "/text") res.writeHead(200, { "content-type": "text/plain" }).end("hello");
    else if (req.url === "/missing") json(res, { message: "no such item" }, 404);
    else if (req.url === "/big-error") json(res, { trace: "x".repeat(5000) }, 500);
    else if (req.url === "/huge")
      res.writeHead(200, { "content-type": "text/plain" }).end("y".repeat(1024 * 1024 + 10));
    else json(res, { results: [{ id: 1 }, { id: 2 }], status: "OK" });
  };

  it("extracts body_raw, json_path and status", async () => {
    const b = await backend(answer);
    const run = (path: string, response: DataToolDefinition["response"]) =>
      executeDataTool(tool({ url: `${b.origin}${path}` }, { response }), {}, {}, deps());
    expect((await run("/json", { extract: "body_raw" })).content).toBe('{"results":[{"id":1},{"id":2}],"status":"OK"}');
    expect((await run("/text", { extract: "body_raw" })).content).toBe('"hello"');
    expect((await run("/json", { extract: "json_path", path: "$.results" })).content).toBe('[{"id":1},{"id":2}]');
    expect((await run("/json", { extract: "json_path", path: "$.nothing" })).content).toBe("null");
    const status = await run("/json", { extract: "status" });
    expect(status.content).toBe('{"status":200}');
    expect(status.record).toMatchObject({ ok: true, status: 200, result: '{"status":200}' });
  });

  it("shapes non-2xx responses (small JSON parsed, big clipped to 200 chars)", async () => {
    const b = await backend(answer);
    const small = await executeDataTool(tool({ url: `${b.origin}/missing` }), {}, {}, deps());
    expect(small.ok).toBe(false);
    expect(JSON.parse(small.content)).toEqual({ error: "HTTP 404", status: 404, body: { message: "no such item" } });
    expect(small.record).toMatchObject({ ok: false, status: 404, error: "HTTP 404" });
    const big = await executeDataTool(tool({ url: `${b.origin}/big-error` }), {}, {}, deps());
    const parsed = JSON.parse(big.content) as { body: string };
    expect(parsed.body).toBe(JSON.stringify({ trace: "x".repeat(5000) }).slice(0, 200));
  });

  it("caps the decoded body at 1 MiB", async () => {
    const b = await backend(answer);
    const r = await executeDataTool(tool({ url: `${b.origin}/huge` }), {}, {}, deps());
    expect(errorOf(r)).toBe("the response body is larger than 1 MiB (cut off)");
    expect(r.record.result?.length).toBeLessThanOrEqual(8192);
  });

  it("a backend that never answers is bounded by the tool timeout (0.2 s)", async () => {
    const b = await backend(() => {
      // never answers
    });
    const started = performance.now();
    const r = await executeDataTool(tool({ url: `${b.origin}/slow` }, { timeout: 0.2 }), {}, {}, deps());
    const elapsed = performance.now() - started;
    expect(errorOf(r)).toBe("request timed out after 0.2 s (the tool's timeout)");
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2000);
    expect(r.record.status).toBeNull();
    expect(b.requests).toHaveLength(1);
  });

  it("a refused connection is a clear network error", async () => {
    const b = await backend();
    const url = `${b.origin}/x`;
    await b.close();
    backends.splice(backends.indexOf(b), 1);
    const r = await executeDataTool(tool({ url }), {}, {}, deps());
    expect(errorOf(r)).toMatch(/network error: .*ECONNREFUSED/);
  });

  it("the caller's signal cancels the call", async () => {
    const b = await backend(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("turn cancelled")), 50);
    const r = await executeDataTool(tool({ url: `${b.origin}/x` }), {}, {}, deps({ signal: controller.signal }));
    expect(errorOf(r)).toBe("the call was cancelled before it completed");
  });
});

describe("executeDataTool: halt_when", () => {
  const halting = (url: string, response: DataToolDefinition["response"] = { extract: "status" }) =>
    tool(
      { method: "POST", url },
      {
        response,
        halt_when: {
          json_path: "tool_result.status",
          equals: ["SUBSCRIBED"],
          say: { json_path: "tool_result.message" },
        },
      },
    );

  it("a 2xx SUBSCRIBED halts with say from the body, independent of extract", async () => {
    const b = await backend((_req, res) => json(res, { status: "SUBSCRIBED", message: "You're in!" }));
    const r = await executeDataTool(halting(`${b.origin}/subscribe`), {}, {}, deps());
    expect(r.ok).toBe(true);
    expect(r.ok && r.halt).toEqual({ say: "You're in!", reason: 'tool_result.status = "SUBSCRIBED"' });
    expect(r.content).toBe('{"status":200}');
    expect(r.record).toMatchObject({ halted: true, halt_reason: 'tool_result.status = "SUBSCRIBED"' });
  });

  it("a 4xx carrying the value never halts; neither does a non-JSON body or another value", async () => {
    const b = await backend((req, res) => {
      if (req.url === "/error") json(res, { status: "SUBSCRIBED", message: "x" }, 409);
      else if (req.url === "/text") res.writeHead(200, { "content-type": "text/plain" }).end("SUBSCRIBED");
      else json(res, { status: "SUBSCRIPTION_FAILED", message: "already enrolled" });
    });
    const error = await executeDataTool(halting(`${b.origin}/error`), {}, {}, deps());
    expect(error.ok).toBe(false);
    expect("halt" in error).toBe(false);
    const text = await executeDataTool(halting(`${b.origin}/text`, { extract: "body_raw" }), {}, {}, deps());
    expect(text.ok && text.halt).toBeUndefined();
    expect(text.record.halted).toBe(false);
    const failed = await executeDataTool(halting(`${b.origin}/other`, { extract: "body_raw" }), {}, {}, deps());
    expect(failed.ok && failed.halt).toBeUndefined();
    expect(failed.content).toContain("already enrolled");
  });
});

describe("executeDataTool: MCP seam", () => {
  const mcpTool = (url: string) =>
    tool(
      { method: "POST", url, protocol: "mcp", mcp_tool: "get-sum", headers: { Authorization: "Bearer {{secret.k}}" } },
      { secret_headers: ["Authorization"] },
    );

  it("without an MCP caller: ok:false, nothing sent", async () => {
    const b = await backend();
    const r = await executeDataTool(
      mcpTool(`${b.origin}/mcp`),
      {},
      {},
      deps({ secrets: staticSecrets({ k: "mcp-key-1" }) }),
    );
    expect(errorOf(r)).toBe("MCP calls are not available");
    expect(r.record.kind).toBe("mcp");
    expect(b.requests).toHaveLength(0);
  });

  it("an MCP caller sends through the guard with the built headers, never seeing the secret", async () => {
    const b = await backend((req, res) =>
      json(res, { jsonrpc: "2.0", id: 1, result: { echo: req.headers.authorization === "Bearer mcp-key-1" } }),
    );
    const r = await executeDataTool(
      mcpTool(`${b.origin}/mcp`),
      { note: "hi" },
      {},
      {
        ...deps({ secrets: staticSecrets({ k: "mcp-key-1" }) }),
        mcp: async (_tool, args, _ctx, send) => {
          const res = await send({
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { arguments: args } }),
            headers: { Authorization: "stolen", Accept: "application/json" },
          });
          if (!res.ok) return { ok: false, error: res.error };
          return { ok: true, value: (JSON.parse(res.body.toString()) as { result: unknown }).result };
        },
      },
    );
    expect(r.content).toBe('{"echo":true}');
    expect(b.requests[0]?.headers.accept).toBe("application/json");
    expect(JSON.parse(b.requests[0]?.body ?? "")).toMatchObject({ params: { arguments: { note: "hi" } } });
    expect(r.record).toMatchObject({
      kind: "mcp",
      status: 200,
      request: { method: "POST", headers: { Authorization: "[secret]" } },
    });
  });
});

describe("executeDataTool: never throws", () => {
  it("answers an error outcome for a broken definition", async () => {
    const broken = { name: "broken", parameters: { type: "object" }, request: null } as unknown as DataToolDefinition;
    const r = await executeDataTool(broken, {}, {}, deps());
    expect(r.ok).toBe(false);
    expect(() => JSON.parse(r.content) as unknown).not.toThrow();
    expect(r.record.tool).toBe("broken");
  });

  it("fails a call that read secrets when its JSON answer is too deep to search for them, instead of throwing", async () => {
    const deep = `{"token":"k-123","data":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const b = await backend((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(deep);
    });
    const keyed = tool(
      { url: `${b.origin}/x`, headers: { Authorization: "Bearer {{secret.k}}" } },
      { secret_headers: ["Authorization"] },
    );
    const r = await executeDataTool(keyed, {}, {}, deps({ secrets: staticSecrets({ k: "k-123" }) }));
    expect(errorOf(r)).toBe(
      "the response is nested more than 256 levels deep, too deep to search for secrets, so it was withheld",
    );
    expect(r.record).toMatchObject({ ok: false, status: 200 });
    expect(JSON.stringify(r)).not.toContain("k-123");
    // Without a secret in play there is nothing to search for: the answer is passed on as received.
    const plain = await executeDataTool(tool({ url: `${b.origin}/x` }), {}, {}, deps());
    expect(plain).toMatchObject({ ok: true, content: deep });
  });
});
