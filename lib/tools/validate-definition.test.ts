import { describe, expect, it } from "vitest";
import { validateToolDefinition, type ValidateToolDefinitionOptions } from "@/lib/tools/validate-definition";

const api: ValidateToolDefinitionOptions = { writePath: "api" };

function base(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "search_products",
    description: "Search the catalog",
    request: { method: "GET", url: "https://api.example.com/search" },
    ...overrides,
  };
}

function withRequest(request: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  return base({ request: { method: "GET", url: "https://api.example.com/search", ...request }, ...overrides });
}

function toolOf(input: unknown, options: ValidateToolDefinitionOptions = api) {
  const r = validateToolDefinition(input, options);
  if (!r.ok) throw new Error(`expected a valid tool: ${r.error}`);
  return r.tool;
}

function errorOf(input: unknown, options: ValidateToolDefinitionOptions = api): string {
  const r = validateToolDefinition(input, options);
  if (r.ok) throw new Error("expected a refusal");
  return r.error;
}

describe("validateToolDefinition: normalization", () => {
  it("fills the documented defaults and nothing else", () => {
    expect(toolOf(base())).toEqual({
      name: "search_products",
      description: "Search the catalog",
      parameters: { type: "object", properties: {} },
      request: { method: "GET", url: "https://api.example.com/search", headers: {}, query: {} },
      response: { extract: "body_raw" },
      secret_headers: [],
      side_effect: false,
      timeout: 30,
      group: null,
      tags: [],
    });
  });

  it("normalizes the spec's full example", () => {
    const tool = toolOf({
      name: "search_products",
      description: "Search the catalog",
      parameters: "query | string | required | What to search",
      request: {
        method: "post",
        url: "https://api.example.com/search",
        headers: { "X-Session": "{{ctx.chat_id}}", Authorization: "Bearer {{secret.api_token}}" },
        query: {},
        body: '{"q": "{{query}}"}',
      },
      response: { extract: "json_path", path: "$.results" },
      secret_headers: ["Authorization"],
      side_effect: true,
      timeout: 30,
      group: " catalog ",
      tags: [" search ", "catalog"],
    });
    expect(tool.request).toEqual({
      method: "POST",
      url: "https://api.example.com/search",
      headers: { "X-Session": "{{ctx.chat_id}}", Authorization: "Bearer {{secret.api_token}}" },
      query: {},
      body: { q: "{{query}}" },
    });
    expect(tool.parameters).toEqual({
      type: "object",
      properties: { query: { type: "string", description: "What to search" } },
      required: ["query"],
    });
    expect(tool.response).toEqual({ extract: "json_path", path: "$.results" });
    expect(tool.group).toBe("catalog");
    expect(tool.tags).toEqual(["search", "catalog"]);
  });

  it("shares no object with the input", () => {
    const input = withRequest(
      { method: "POST", body: { a: ["x"] } },
      { parameters: { type: "object", properties: {} } },
    );
    const tool = toolOf(input);
    expect(tool.parameters).not.toBe(input.parameters);
    expect(tool.request.body).not.toBe((input.request as { body: unknown }).body);
  });

  it("drops undefined-valued fields (a config file's way of saying absent) and treats null as absent", () => {
    const tool = toolOf(base({ group: undefined, tags: null, halt_when: null, response: null, timeout: null }));
    expect(tool.group).toBeNull();
    expect(tool.tags).toEqual([]);
    expect(tool.response).toEqual({ extract: "body_raw" });
    expect(tool.timeout).toBe(30);
    expect("halt_when" in tool).toBe(false);
  });
});

describe("validateToolDefinition: top level", () => {
  it("requires an object", () => {
    for (const input of [null, [], "tool", 3]) {
      expect(errorOf(input)).toBe("a tool definition must be a JSON object");
    }
  });

  it("refuses unknown fields, naming them", () => {
    expect(errorOf(base({ colour: "red" }))).toBe("unknown field 'colour'");
    expect(errorOf(withRequest({ verb: "GET" }))).toBe("unknown field 'request.verb'");
    expect(errorOf(base({ response: { extract: "status", shape: 1 } }))).toBe("unknown field 'response.shape'");
  });

  it("refuses what JSON cannot hold", () => {
    expect(errorOf(base({ timeout: Number.NaN }))).toBe("tool definition: timeout: NaN is not a JSON number");
    expect(errorOf(base({ group: new Date(0) }))).toBe("tool definition: group: not a JSON value (Date)");
    expect(errorOf(base({ tags: [() => 1] }))).toBe("tool definition: tags[0]: a function is not a JSON value");
  });

  it("joins several problems with '; '", () => {
    expect(errorOf({ name: "X", request: { method: "GET", url: "https://a.example" } })).toBe(
      "name 'X' must match /^[a-z][a-z0-9_]*$/ (a lowercase letter, then lowercase letters, digits or _); description is required (it is what the model reads)",
    );
  });
});

describe("validateToolDefinition: name and description", () => {
  it("applies the name rule and the length limit", () => {
    for (const bad of ["Search", "1abc", "_x", "a-b", "a b", "ação"]) {
      expect(errorOf(base({ name: bad }))).toMatch(/must match \/\^\[a-z\]\[a-z0-9_\]\*\$\//);
    }
    expect(toolOf(base({ name: "a" + "b".repeat(63) })).name).toHaveLength(64);
    expect(errorOf(base({ name: "a".repeat(65) }))).toBe("name must be at most 64 characters");
    expect(errorOf(base({ name: undefined }))).toBe("name is required");
    expect(errorOf(base({ name: 7 }))).toBe("name must be a string");
  });

  it("refuses reserved names as code tools", () => {
    const reservedNames = new Set(["tool_search", "edit_file"]);
    expect(errorOf(base({ name: "edit_file" }), { writePath: "api", reservedNames })).toBe(
      "'edit_file' is already a code tool",
    );
    expect(toolOf(base({ name: "edit_files" }), { writePath: "api", reservedNames }).name).toBe("edit_files");
  });

  it("requires a non-blank description", () => {
    expect(errorOf(base({ description: "  " }))).toBe("description is required (it is what the model reads)");
    expect(errorOf(base({ description: undefined }))).toBe("description is required (it is what the model reads)");
    expect(errorOf(base({ description: 5 }))).toBe("description must be a string");
  });
});

describe("validateToolDefinition: parameters", () => {
  it("accepts a JSON Schema object, JSON text, and flat sugar, storing JSON Schema", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    expect(toolOf(base({ parameters: schema })).parameters).toEqual(schema);
    expect(toolOf(base({ parameters: `  ${JSON.stringify(schema)}` })).parameters).toEqual(schema);
    expect(toolOf(base({ parameters: "q | string | required" })).parameters).toEqual(schema);
  });

  it("reports JSON text errors, flat-sugar errors and unsafe schemas", () => {
    expect(errorOf(base({ parameters: "{ nope" }))).toMatch(/^parameters: invalid JSON Schema text \(/);
    expect(errorOf(base({ parameters: "q | string | required\ntags | array | optional" }))).toMatch(
      /^parameters: line 2: 'array' needs an item type: write array:string/,
    );
    expect(errorOf(base({ parameters: { type: "object", properties: { x: { type: "string", anyOf: [] } } } }))).toBe(
      "parameters.properties.x: 'anyOf' is not allowed (not every provider supports it)",
    );
    expect(errorOf(base({ parameters: 3 }))).toBe(
      "parameters must be a JSON Schema object, JSON Schema text or flat-sugar text",
    );
  });
});

describe("validateToolDefinition: request shape", () => {
  it("accepts every method case-insensitively and stores it upper-case", () => {
    for (const m of ["get", "Head", "POST", "put", "patch", "delete"]) {
      expect(toolOf(withRequest({ method: m })).request.method).toBe(m.toUpperCase());
    }
    expect(errorOf(withRequest({ method: "TRACE" }))).toBe(
      "request.method must be one of GET, HEAD, POST, PUT, PATCH, DELETE",
    );
    expect(errorOf(base({ request: { url: "https://a.example" } }))).toBe(
      "request.method must be one of GET, HEAD, POST, PUT, PATCH, DELETE",
    );
  });

  it("requires request and its url", () => {
    expect(errorOf(base({ request: undefined }))).toBe("request is required");
    expect(errorOf(base({ request: "GET /" }))).toBe("request must be an object");
    expect(errorOf(base({ request: { method: "GET" } }))).toBe("request.url is required");
    expect(errorOf(withRequest({ url: 3 }))).toBe("request.url must be a string");
  });

  it("requires headers and query to be objects of strings", () => {
    expect(errorOf(withRequest({ headers: { "X-N": 1 } }))).toBe("request.headers.X-N must be a string");
    expect(errorOf(withRequest({ query: { limit: 10 } }))).toBe("request.query.limit must be a string");
    expect(errorOf(withRequest({ headers: ["a"] }))).toBe("request.headers must be an object of strings");
    expect(errorOf(withRequest({ headers: { "Bad Name": "x" } }))).toBe(
      "request.headers: 'Bad Name' is not a valid header name",
    );
    expect(errorOf(withRequest({ headers: { "X-A": "a\r\nInjected: 1" } }))).toBe(
      "request.headers.X-A must not contain CR, LF or NUL",
    );
    expect(errorOf(withRequest({ headers: { "X-A": "1", "x-a": "2" } }))).toBe(
      "request.headers: 'x-a' is given twice (header names are case-insensitive)",
    );
    expect(errorOf(withRequest({ query: { "{{q}}": "x" } }, { parameters: "q | string | required" }))).toBe(
      "request.query: placeholders are allowed in values, not in the name '{{q}}'",
    );
  });

  it("stores a JSON body or the JSON text of a string body, parsed", () => {
    expect(toolOf(withRequest({ method: "POST", body: { a: [1, "x"] } })).request.body).toEqual({ a: [1, "x"] });
    expect(toolOf(withRequest({ method: "POST", body: '{"a": [1, "x"]}' })).request.body).toEqual({ a: [1, "x"] });
    expect(toolOf(withRequest({ method: "POST", body: "[1]" })).request.body).toEqual([1]);
    expect(toolOf(withRequest({ method: "POST", body: false })).request.body).toBe(false);
    const noBody = toolOf(withRequest({ method: "POST", body: null })).request;
    expect("body" in noBody).toBe(false);
    expect("body" in toolOf(withRequest({ method: "POST", body: "  " })).request).toBe(false);
  });

  it("takes a lone placeholder as the whole body, quoted or not", () => {
    const params = { parameters: { type: "object", properties: { payload: { type: "object" } } } };
    expect(toolOf(withRequest({ method: "POST", body: "{{payload}}" }, params)).request.body).toBe("{{payload}}");
    expect(toolOf(withRequest({ method: "POST", body: ' "{{ payload }}" ' }, params)).request.body).toBe(
      "{{ payload }}",
    );
  });

  it("refuses a body that is a plain JSON string (it could not be told from JSON text later)", () => {
    const message =
      'request.body: a body that is a single JSON string must be a lone placeholder such as "{{payload}}"; use an object or array';
    expect(errorOf(withRequest({ method: "POST", body: '"text"' }))).toBe(message);
    expect(errorOf(withRequest({ method: "POST", body: '"123"' }))).toBe(message);
  });

  it("refuses a string body that is not JSON text, hinting at quoted placeholders", () => {
    const e = errorOf(withRequest({ method: "POST", body: '{"n": {{n}}}' }, { parameters: "n | integer | required" }));
    expect(e).toMatch(/^request\.body: a string body must hold JSON text \(/);
    expect(e).toContain('"{{count}}"');
  });

  it("refuses a body on GET and HEAD", () => {
    expect(errorOf(withRequest({ method: "GET", body: { a: 1 } }))).toBe("request.body is not allowed with GET");
    expect(errorOf(withRequest({ method: "head", body: "{}" }))).toBe("request.body is not allowed with HEAD");
  });

  it("handles protocol and mcp_tool", () => {
    const mcp = toolOf(withRequest({ method: "POST", protocol: "mcp", mcp_tool: "get-sum" }));
    expect(mcp.request.protocol).toBe("mcp");
    expect(mcp.request.mcp_tool).toBe("get-sum");
    expect(toolOf(withRequest({ protocol: "http" })).request.protocol).toBe("http");
    expect("protocol" in toolOf(base()).request).toBe(false);
    expect(errorOf(withRequest({ method: "POST", protocol: "mcp" }))).toBe(
      'request.mcp_tool is required when request.protocol is "mcp"',
    );
    expect(errorOf(withRequest({ method: "GET", protocol: "mcp", mcp_tool: "x" }))).toBe(
      'request.method must be POST when request.protocol is "mcp"',
    );
    expect(errorOf(withRequest({ mcp_tool: "x" }))).toBe(
      'request.mcp_tool is only allowed when request.protocol is "mcp"',
    );
    expect(errorOf(withRequest({ protocol: "grpc" }))).toBe('request.protocol must be "http" or "mcp"');
    expect(errorOf(withRequest({ method: "POST", protocol: "mcp", mcp_tool: " " }))).toBe(
      "request.mcp_tool must be a non-blank string",
    );
    expect(errorOf(withRequest({ method: "POST", protocol: "mcp", mcp_tool: "x", body: {} }))).toBe(
      'request.body is not allowed when request.protocol is "mcp" (the JSON-RPC call is the body)',
    );
  });
});

describe("validateToolDefinition: response, side_effect, timeout, group, tags", () => {
  it("validates response extraction", () => {
    expect(toolOf(base({ response: { extract: "status" } })).response).toEqual({ extract: "status" });
    expect(toolOf(base({ response: {} })).response).toEqual({ extract: "body_raw" });
    expect(toolOf(base({ response: { extract: "json_path", path: " $.items[0] " } })).response).toEqual({
      extract: "json_path",
      path: "$.items[0]",
    });
    expect(errorOf(base({ response: { extract: "json_path" } }))).toBe(
      'response.path is required when extract is "json_path"',
    );
    expect(errorOf(base({ response: { extract: "json_path", path: "$." } }))).toMatch(
      /^response\.path: invalid path '\$\.'/,
    );
    expect(errorOf(base({ response: { extract: "status", path: "$.a" } }))).toBe(
      'response.path is used only with extract "json_path" (extract is "status")',
    );
    expect(errorOf(base({ response: { extract: "xml" } }))).toBe(
      "response.extract must be one of body_raw, json_path, status",
    );
  });

  it("defaults side_effect from the method", () => {
    for (const [method, expected] of [
      ["GET", false],
      ["HEAD", false],
      ["POST", true],
      ["PUT", true],
      ["PATCH", true],
      ["DELETE", true],
    ] as const) {
      expect(toolOf(withRequest({ method })).side_effect).toBe(expected);
    }
    expect(toolOf(withRequest({ method: "POST" }, { side_effect: false })).side_effect).toBe(false);
    expect(errorOf(base({ side_effect: "yes" }))).toBe("side_effect must be true or false");
  });

  it("bounds the timeout", () => {
    expect(toolOf(base({ timeout: 2.5 })).timeout).toBe(2.5);
    expect(toolOf(base({ timeout: 300 })).timeout).toBe(300);
    for (const bad of [0, -1, 301, "30"]) {
      expect(errorOf(base({ timeout: bad }))).toBe(
        "timeout must be a number of seconds greater than 0 and at most 300",
      );
    }
  });

  it("trims the group and maps blank to null", () => {
    expect(toolOf(base({ group: "  " })).group).toBeNull();
    expect(toolOf(base({ group: "mcp:everything" })).group).toBe("mcp:everything");
    expect(errorOf(base({ group: 3 }))).toBe("group must be a string");
  });

  it("requires unique non-empty tags", () => {
    expect(errorOf(base({ tags: ["a", " a "] }))).toBe("tags: duplicate tag 'a'");
    expect(errorOf(base({ tags: ["a", ""] }))).toBe("tags[1] must be a non-empty string");
    expect(errorOf(base({ tags: "a,b" }))).toBe("tags must be a list of strings");
  });
});

describe("validateToolDefinition: halt_when and say", () => {
  const halt = (h: unknown) => base({ halt_when: h });

  it("stores equals as strings and say as given", () => {
    const tool = toolOf(
      halt({
        json_path: "tool_result.status",
        equals: ["SUBSCRIBED", 1, 1.5, true],
        say: { json_path: "tool_result.message" },
      }),
    );
    expect(tool.halt_when).toEqual({
      json_path: "tool_result.status",
      equals: ["SUBSCRIBED", "1", "1.5", "true"],
      say: { json_path: "tool_result.message" },
    });
    expect(
      toolOf(halt({ json_path: "tool_result", equals: ["x"], say: { text: "CALL_SUPPORT" } })).halt_when?.say,
    ).toEqual({ text: "CALL_SUPPORT" });
    expect(toolOf(halt({ json_path: "$.s", equals: ["x"] })).halt_when).toEqual({ json_path: "$.s", equals: ["x"] });
  });

  it("refuses both or neither say form", () => {
    expect(errorOf(halt({ json_path: "$.s", equals: ["x"], say: { text: "hi", json_path: "$.m" } }))).toBe(
      "halt_when.say must have exactly one of text or json_path, not both",
    );
    expect(errorOf(halt({ json_path: "$.s", equals: ["x"], say: {} }))).toBe(
      "halt_when.say must have exactly one of text or json_path (it has neither)",
    );
  });

  it("validates each part of the rule", () => {
    expect(errorOf(halt({ equals: ["x"] }))).toBe("halt_when.json_path is required");
    expect(errorOf(halt({ json_path: "$[x]", equals: ["x"] }))).toMatch(/^halt_when\.json_path: invalid path/);
    expect(errorOf(halt({ json_path: "$.s", equals: [] }))).toBe(
      "halt_when.equals must be a non-empty list of strings, numbers or booleans",
    );
    expect(errorOf(halt({ json_path: "$.s" }))).toBe(
      "halt_when.equals must be a non-empty list of strings, numbers or booleans",
    );
    expect(errorOf(halt({ json_path: "$.s", equals: [null] }))).toBe(
      "halt_when.equals[0]: null never matches; use a string, number or boolean",
    );
    expect(errorOf(halt({ json_path: "$.s", equals: [{ a: 1 }] }))).toBe(
      "halt_when.equals[0] must be a string, number or boolean",
    );
    expect(errorOf(halt({ json_path: "$.s", equals: ["x"], say: { text: " " } }))).toBe(
      "halt_when.say.text must be a non-blank string",
    );
    expect(errorOf(halt({ json_path: "$.s", equals: ["x"], say: { json_path: "$." } }))).toMatch(
      /^halt_when\.say\.json_path: invalid path/,
    );
    expect(errorOf(halt({ json_path: "$.s", equals: ["x"], when: 1 }))).toBe("unknown field 'halt_when.when'");
    expect(errorOf(halt({ json_path: "$.s", equals: ["x"], say: { text: "a", voice: 1 } }))).toBe(
      "unknown field 'halt_when.say.voice'",
    );
    expect(errorOf(halt("SUBSCRIBED"))).toBe("halt_when must be an object");
    expect(errorOf(halt({ json_path: "$.s", equals: ["x"], say: "hi" }))).toBe(
      "halt_when.say must be an object with exactly one of text or json_path",
    );
  });
});

describe("literal credentials in headers", () => {
  const headers = (h: Record<string, string>, secret_headers?: string[]) =>
    withRequest(
      { method: "GET", url: "https://api.example.com/x", headers: h },
      secret_headers ? { secret_headers } : {},
    );

  it("refuses one on every write path, naming the header and pointing to {{secret.*}}", () => {
    for (const writePath of ["api", "manifest", "config", "mcp"] as const) {
      const error = errorOf(headers({ Authorization: "Bearer abc123" }), { writePath });
      expect(error).toMatch(/^request\.headers\.Authorization: 'Authorization' carries a credential/);
      expect(error).toContain("{{secret.api_token}}");
    }
    expect(errorOf(headers({ "X-Client-Secret": "hunter2" }))).toContain("request.headers.X-Client-Secret");
  });

  it("accepts a secret reference, a placeholder, ordinary headers, and a literal the operator listed in secret_headers", () => {
    expect(
      toolOf(headers({ Authorization: "Bearer {{secret.api_token}}" }, ["Authorization"])).request.headers,
    ).toEqual({
      Authorization: "Bearer {{secret.api_token}}",
    });
    expect(
      toolOf(headers({ "X-Api-Key": "{{ctx.tenant}}", Accept: "application/json" })).request.headers,
    ).toMatchObject({ Accept: "application/json" });
    expect(toolOf(headers({ "X-Api-Key": "public-demo-key" }, ["X-Api-Key"])).secret_headers).toEqual(["X-Api-Key"]);
  });

  it("lets a stored row re-checked with literalCredentials: allow keep validating", () => {
    expect(
      toolOf(headers({ Cookie: "sid=abc" }), { writePath: "api", literalCredentials: "allow" }).request.headers,
    ).toEqual({ Cookie: "sid=abc" });
  });
});
