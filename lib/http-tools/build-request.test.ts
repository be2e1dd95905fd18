import { describe, expect, it } from "vitest";
import { staticSecrets } from "@/lib/secrets/secret-source";
import type { DataToolDefinition, ToolRequest } from "@/lib/tools/types";
import { buildRequest, type BuildRequestResult } from "./build-request";
import { dataTool } from "@/test/support/data-tool";

const SECRETS = staticSecrets({ api_token: "tok-123456" });

function tool(request: Partial<ToolRequest>, extra: Partial<DataToolDefinition> = {}): DataToolDefinition {
  return dataTool({
    parameters: {
      type: "object",
      properties: {
        id: { type: "string" },
        q: { type: "string" },
        page: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
        note: { type: "string" },
        obj: { type: "object", properties: {} },
        chat_id: { type: "string" },
        a: { type: "string" },
        b: { type: "string" },
      },
    },
    request: { method: "GET", url: "https://api.example.com/x", headers: {}, query: {}, ...request },
    ...extra,
  });
}

function ok(result: BuildRequestResult) {
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  return result;
}

function err(result: BuildRequestResult): string {
  if (result.ok) throw new Error(`expected a refusal, got ${result.request.url}`);
  return result.error;
}

describe("buildRequest: URL path", () => {
  it.each([
    ["../", "..%2F"],
    ["a?b=c", "a%3Fb%3Dc"],
    ["a#frag", "a%23frag"],
    ["a/b", "a%2Fb"],
    ["ünï cødé", "%C3%BCn%C3%AF%20c%C3%B8d%C3%A9"],
    ["%2e%2e", "%252e%252e"],
    ["@evil.com", "%40evil.com"],
    ["a\\b", "a%5Cb"],
  ])("percent-encodes %j as one segment", (id, encoded) => {
    const r = ok(buildRequest(tool({ url: "https://api.example.com/items/{{id}}/detail" }), { id }, {}, SECRETS));
    expect(r.request.url).toBe(`https://api.example.com/items/${encoded}/detail`);
    expect(new URL(r.request.url).origin).toBe("https://api.example.com");
  });

  it.each([".", ".."])("refuses the path value %j", (id) => {
    expect(err(buildRequest(tool({ url: "https://api.example.com/items/{{id}}" }), { id }, {}, SECRETS))).toMatch(
      /'\.' or '\.\.' is refused/,
    );
  });

  it("refuses a dot segment assembled from two values", () => {
    const t = tool({ url: "https://api.example.com/items/{{a}}{{b}}" });
    expect(err(buildRequest(t, { a: ".", b: "." }, {}, SECRETS))).toMatch(/refused/);
  });

  it("refuses an empty or absent path value (it would address another resource)", () => {
    const t = tool({ method: "DELETE", url: "https://api.example.com/users/{{id}}" });
    expect(err(buildRequest(t, { id: "" }, {}, SECRETS))).toMatch(/must not be empty/);
    expect(err(buildRequest(t, {}, {}, SECRETS))).toMatch(/'id' is required here/);
  });

  it("keeps literal operator text and drops the fragment", () => {
    const t = tool({ url: "https://api.example.com/v1/a%20b/{{id}}#frag{{id}}" });
    expect(ok(buildRequest(t, { id: "7" }, {}, SECRETS)).request.url).toBe("https://api.example.com/v1/a%20b/7");
  });
});

describe("buildRequest: query", () => {
  it("encodes URL-template and query-map values as query components", () => {
    const t = tool({
      url: "https://api.example.com/search?q={{q}}&fixed=a%20b",
      query: { note: "{{note}}", lit: "x y" },
    });
    const r = ok(buildRequest(t, { q: "a&b=c#d/ü", note: "1+1=2 & more" }, {}, SECRETS));
    const url = new URL(r.request.url);
    expect(url.origin).toBe("https://api.example.com");
    expect(url.pathname).toBe("/search");
    expect(url.searchParams.get("q")).toBe("a&b=c#d/ü");
    expect(url.searchParams.get("fixed")).toBe("a b");
    expect(url.searchParams.get("note")).toBe("1+1=2 & more");
    expect(url.searchParams.get("lit")).toBe("x y");
    expect([...url.searchParams.keys()]).toEqual(["q", "fixed", "note", "lit"]);
  });

  it("drops a parameter whose whole value is an absent optional argument", () => {
    const t = tool({
      url: "https://api.example.com/s?q={{q}}&keep=1",
      query: { page: "{{page}}", note: "n={{note}}" },
    });
    const url = new URL(ok(buildRequest(t, {}, {}, SECRETS)).request.url);
    expect([...url.searchParams.entries()]).toEqual([
      ["keep", "1"],
      ["note", "n="],
    ]);
  });

  it("repeats a parameter for an array of scalars and sends numbers as sent", () => {
    const t = tool({ query: { tags: "{{tags}}", page: "{{page}}" } });
    const url = new URL(ok(buildRequest(t, { tags: ["a&b", "c"], page: "2" }, {}, SECRETS)).request.url);
    expect(url.searchParams.getAll("tags")).toEqual(["a&b", "c"]);
    expect(url.searchParams.get("page")).toBe("2");
  });
});

describe("buildRequest: headers", () => {
  it.each([
    ["CR LF", "a\r\nX-Injected: 1"],
    ["LF", "a\nb"],
    ["NUL", "a\u0000b"],
  ])("refuses a value with %s", (_name, note) => {
    const t = tool({ headers: { "X-Note": "note: {{note}}" } });
    expect(err(buildRequest(t, { note }, {}, SECRETS))).toMatch(
      /request\.headers\.X-Note: the value contains CR, LF or NUL/,
    );
  });

  it("refuses characters a header cannot carry", () => {
    const t = tool({ headers: { "X-Note": "{{note}}" } });
    expect(err(buildRequest(t, { note: "雪" }, {}, SECRETS))).toMatch(/cannot carry/);
  });

  it("drops a header that is exactly an absent optional argument", () => {
    const t = tool({ headers: { "X-Note": "{{note}}", "X-Fixed": "1" } });
    expect(ok(buildRequest(t, {}, {}, SECRETS)).request.headers).toEqual({ "X-Fixed": "1" });
  });
});

describe("buildRequest: context and secrets", () => {
  it("reads {{ctx.*}} from the turn context only, never from an argument of the same name", () => {
    const t = tool({ headers: { "X-Session": "{{ctx.chat_id}}" }, query: { chat: "{{ctx.chat_id}}" } });
    const r = ok(buildRequest(t, { chat_id: "attacker" }, { chat_id: "chat-42" }, SECRETS));
    expect(r.request.headers["X-Session"]).toBe("chat-42");
    expect(new URL(r.request.url).searchParams.get("chat")).toBe("chat-42");
  });

  it("refuses a call when a needed context key is missing", () => {
    const t = tool({ headers: { "X-Tenant": "{{ctx.tenant}}" } });
    expect(err(buildRequest(t, {}, { chat_id: "c" }, SECRETS))).toMatch(/turn context has no tenant/);
  });

  it("resolves a secret in a secret header and reports its value for redaction", () => {
    const t = tool(
      { headers: { Authorization: "Bearer {{secret.api_token}}" } },
      { secret_headers: ["authorization"] },
    );
    const r = ok(buildRequest(t, {}, {}, SECRETS));
    expect(r.request.headers.Authorization).toBe("Bearer tok-123456");
    expect(r.secretValues).toEqual(["tok-123456"]);
    expect(r.secretHeaders).toEqual(["Authorization"]);
  });

  it("refuses a missing secret with its name, and a secret outside a secret header", () => {
    const missing = tool(
      { headers: { Authorization: "Bearer {{secret.nope}}" } },
      { secret_headers: ["Authorization"] },
    );
    expect(err(buildRequest(missing, {}, {}, SECRETS))).toMatch(
      /secret 'nope' is not provisioned \(set INSIKA_SECRET_NOPE/,
    );
    const outside = tool({ headers: { "X-Key": "{{secret.api_token}}" } });
    const refused = buildRequest(outside, {}, {}, SECRETS);
    expect(err(refused)).toMatch(/only inside a header listed in secret_headers/);
    expect(refused.secretValues).toEqual([]);
  });

  it("never re-expands a model value", () => {
    const t = tool(
      {
        url: "https://api.example.com/x/{{id}}",
        headers: { Authorization: "{{secret.api_token}}", "X-Note": "{{note}}" },
        query: { q: "{{q}}" },
        method: "POST",
        body: { note: "{{note}}", text: "n: {{note}}" },
      },
      { secret_headers: ["Authorization"] },
    );
    const value = "{{secret.api_token}}{{ctx.tenant}}";
    const r = ok(buildRequest(t, { id: value, note: value, q: value }, { tenant: "t1" }, SECRETS));
    expect(r.request.headers["X-Note"]).toBe(value);
    expect(new URL(r.request.url).searchParams.get("q")).toBe(value);
    expect(decodeURIComponent(new URL(r.request.url).pathname)).toBe(`/x/${value}`);
    expect(JSON.parse(r.request.body ?? "")).toEqual({ note: value, text: `n: ${value}` });
    expect(r.request.url).not.toContain("tok-123456");
    expect(r.request.body).not.toContain("tok-123456");
  });
});

describe("buildRequest: JSON body", () => {
  const bodyTool = (body: ToolRequest["body"]) => tool({ method: "POST", body });

  it("keeps hostile strings inside their JSON strings", () => {
    const hostile = ['"}', "\\", '\\"', '", "admin": true, "x": "', "\u2028\u0000", "ünï 🎉", "{{secret.api_token}}"];
    for (const note of hostile) {
      const r = ok(
        buildRequest(bodyTool({ user: { note: "{{note}}", text: "said: {{note}}!" } }), { note }, {}, SECRETS),
      );
      expect(JSON.parse(r.request.body ?? "")).toEqual({ user: { note, text: `said: ${note}!` } });
    }
  });

  it("gives an exact placeholder the argument's JSON value", () => {
    const t = bodyTool({ page: "{{page}}", tags: "{{tags}}", obj: "{{obj}}", s: "{{page}}!" });
    const obj = { nested: [1, { x: '"' }], __proto__: { polluted: true } };
    const args = JSON.parse(JSON.stringify({ page: 3, tags: ["a", "b"], obj })) as Record<string, unknown>;
    const r = ok(buildRequest(t, args, {}, SECRETS));
    const sent = JSON.parse(r.request.body ?? "") as Record<string, unknown>;
    expect(sent).toEqual({ page: 3, tags: ["a", "b"], obj: JSON.parse(JSON.stringify(obj)), s: "3!" });
    expect(r.request.headers["Content-Type"]).toBe("application/json");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps a literal `__proto__` key (body or header) as a plain key, never a prototype", () => {
    const t = bodyTool(JSON.parse('{"__proto__": {"inner": "{{page}}"}, "x": "y"}') as ToolRequest["body"]);
    const r = ok(buildRequest(t, { page: "two" }, {}, SECRETS));
    expect(r.request.body).toBe('{"__proto__":{"inner":"two"},"x":"y"}');
    const h = ok(
      buildRequest(
        tool({ headers: JSON.parse('{"__proto__": "p", "X-A": "1"}') as Record<string, string> }),
        {},
        {},
        SECRETS,
      ),
    );
    expect(Object.getPrototypeOf(h.request.headers)).toBe(Object.prototype);
    expect(Object.keys(h.request.headers)).toEqual(["__proto__", "X-A"]);
    expect(h.request.headers["__proto__"]).toBe("p");
  });

  it("sends a lossless string as the model sent it (no coercion)", () => {
    const r = ok(buildRequest(bodyTool({ page: "{{page}}" }), { page: "2" }, {}, SECRETS));
    expect(r.request.body).toBe('{"page":"2"}');
  });

  it("drops a key for an absent optional argument, keeps array positions with null", () => {
    const t = bodyTool({ note: "{{note}}", keep: 1, list: ["{{note}}", "x"] });
    expect(JSON.parse(ok(buildRequest(t, {}, {}, SECRETS)).request.body ?? "")).toEqual({ keep: 1, list: [null, "x"] });
  });

  it("sends no body when the whole template is an absent argument", () => {
    const r = ok(buildRequest(bodyTool("{{obj}}"), {}, {}, SECRETS));
    expect(r.request.body).toBeUndefined();
    expect(r.request.headers).toEqual({});
  });

  it("keeps an operator Content-Type", () => {
    const t = tool({ method: "POST", headers: { "content-type": "application/vnd.x+json" }, body: { a: 1 } });
    expect(ok(buildRequest(t, {}, {}, SECRETS)).request.headers).toEqual({ "content-type": "application/vnd.x+json" });
  });
});

describe("buildRequest: never throws", () => {
  it("answers an error for non-object arguments and broken definitions", () => {
    expect(err(buildRequest(tool({}), "nope", {}, SECRETS))).toMatch(/arguments must be a JSON object/);
    expect(err(buildRequest(tool({ url: "https://{{id}}.example.com/" }), { id: "x" }, {}, SECRETS))).toMatch(
      /literal/,
    );
    expect(err(buildRequest(tool({ url: "https://api.example.com/{{undeclared}}" }), {}, {}, SECRETS))).toMatch(
      /not a declared parameter/,
    );
    expect(err(buildRequest(tool({ url: "https://api.example.com/{{env.X}}" }), {}, {}, SECRETS))).toMatch(
      /cannot be resolved/,
    );
    expect(err(buildRequest(tool({ url: "https://api.example.com/x/{{id}}" }), { id: "\ud800" }, {}, SECRETS))).toMatch(
      /lone surrogate/,
    );
  });
});
