import { describe, expect, it } from "vitest";
import { validateToolDefinition, type ValidateToolDefinitionOptions } from "@/lib/tools/validate-definition";

// The URL, placeholder, secret and env rules, driven through the public validator.

function def(request: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    name: "t",
    description: "d",
    parameters: "q | string | required\nid | integer | optional",
    request: { method: "POST", url: "https://api.example.com/x", ...request },
    ...extra,
  };
}

function errorOf(input: unknown, options: ValidateToolDefinitionOptions = { writePath: "api" }): string {
  const r = validateToolDefinition(input, options);
  if (r.ok) throw new Error("expected a refusal");
  return r.error;
}

function requestOf(input: unknown, options: ValidateToolDefinitionOptions = { writePath: "api" }) {
  const r = validateToolDefinition(input, options);
  if (!r.ok) throw new Error(`expected a valid tool: ${r.error}`);
  return r.tool.request;
}

describe("url", () => {
  it("must be http/https", () => {
    for (const url of [
      "ftp://a.example/x",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "api.example.com/x",
      "http://",
    ]) {
      expect(errorOf(def({ url }))).toBe("url must be http/https");
    }
    expect(errorOf(def({ url: "https://a.example:99999/" }))).toBe(
      'request.url is refused by the egress guard (bad-port): port "99999" is not a valid port (1-65535)',
    );
    expect(requestOf(def({ url: "http://a.example/x" })).url).toBe("http://a.example/x");
    expect(requestOf(def({ url: "  https://a.example/x " })).url).toBe("https://a.example/x");
  });

  it("allows placeholders in the path and query", () => {
    const url = "https://api.example.com/items/{{id}}?q={{ q }}&chat={{ctx.chat_id}}";
    expect(requestOf(def({ url })).url).toBe(url);
  });

  it("refuses a placeholder in the scheme, host or port", () => {
    const hostMessage =
      "request.url: the scheme, host and port must be literal (a placeholder there would let the model choose the destination)";
    for (const url of [
      "https://{{q}}/x",
      "https://{{q}}.example.com/x",
      "https://api.example.com{{q}}",
      "https://api.example.com:{{id}}/x",
      "https:{{q}}/x",
      "https:\\\\{{q}}\\x",
      "https://{{ctx.tenant}}.example.com/",
    ]) {
      expect(errorOf(def({ url })), url).toBe(hostMessage);
    }
    expect(errorOf(def({ url: "{{q}}://a.example/" }))).toBe("url must be http/https");
  });

  it("refuses credentials and whitespace inside the URL", () => {
    expect(errorOf(def({ url: "https://user:pw@a.example/" }))).toBe(
      "request.url is refused by the egress guard (userinfo): URL contains credentials (user@host)",
    );
    expect(errorOf(def({ url: "https://a.example/a b" }))).toBe(
      "request.url is refused by the egress guard (control-chars): URL contains whitespace or control characters",
    );
  });
});

describe("placeholders", () => {
  it("must name a declared top-level parameter", () => {
    expect(errorOf(def({ url: "https://a.example/{{x}}" }))).toBe(
      "request.url: unknown placeholder {{x}}: not a declared top-level parameter",
    );
    expect(errorOf(def({ body: { a: ["{{nested}}"] } }))).toBe(
      "request.body.a[0]: unknown placeholder {{nested}}: not a declared top-level parameter",
    );
    const nested = { type: "object", properties: { o: { type: "object", properties: { inner: { type: "string" } } } } };
    expect(errorOf(def({ query: { v: "{{inner}}" } }, { parameters: nested }))).toBe(
      "request.query.v: unknown placeholder {{inner}}: not a declared top-level parameter",
    );
  });

  it("allows only the closed set of ctx keys", () => {
    const ok = requestOf(
      def({ headers: { "X-A": "{{ctx.chat_id}}/{{ctx.store_id}}/{{ctx.agent_id}}/{{ctx.tenant}}" } }),
    );
    expect(ok.headers["X-A"]).toBe("{{ctx.chat_id}}/{{ctx.store_id}}/{{ctx.agent_id}}/{{ctx.tenant}}");
    expect(errorOf(def({ headers: { "X-A": "{{ctx.user_id}}" } }))).toBe(
      "request.headers.X-A: unknown context key {{ctx.user_id}} (allowed: chat_id, store_id, agent_id, tenant)",
    );
  });

  it("allows secrets only inside a secret header", () => {
    const ok = requestOf(
      def({ headers: { Authorization: "Bearer {{secret.api_token}}" } }, { secret_headers: ["authorization"] }),
    );
    expect(ok.headers.Authorization).toBe("Bearer {{secret.api_token}}");
    const msg = "{{secret.*}} is allowed only inside a header listed in secret_headers";
    expect(errorOf(def({ headers: { Authorization: "Bearer {{secret.api_token}}" } }))).toBe(
      `request.headers.Authorization: ${msg}`,
    );
    expect(errorOf(def({ url: "https://a.example/?k={{secret.k}}" }))).toBe(`request.url: ${msg}`);
    expect(errorOf(def({ query: { k: "{{secret.k}}" } }))).toBe(`request.query.k: ${msg}`);
    expect(errorOf(def({ body: { k: "{{secret.k}}" } }))).toBe(`request.body.k: ${msg}`);
    expect(
      errorOf(
        def(
          { headers: { Authorization: "{{secret.a}}", "X-Other": "{{secret.b}}" } },
          { secret_headers: ["Authorization"] },
        ),
      ),
    ).toBe(`request.headers.X-Other: ${msg}`);
  });

  it("refuses unknown namespaces and malformed placeholders", () => {
    expect(errorOf(def({ body: { a: "{{user.id}}" } }))).toBe(
      "request.body.a: unknown placeholder namespace 'user' in {{user.id}} (use {{param}}, {{ctx.key}}, {{secret.name}} or {{env.NAME}})",
    );
    expect(errorOf(def({ headers: { "X-A": "{{ctx.chat-id}}" } }))).toBe(
      "request.headers.X-A: malformed placeholder '{{ctx.chat-id}}' (expected {{param}}, {{ctx.key}}, {{secret.name}} or {{env.NAME}})",
    );
    expect(errorOf(def({ body: { a: "{{q" } }))).toMatch(/^request\.body\.a: malformed placeholder '\{\{q'/);
    expect(errorOf(def({ body: { "{{q}}": 1 } }))).toBe(
      "request.body: placeholders are allowed in values, not in the key '{{q}}'",
    );
  });

  it("skips the parameter check when parameters are invalid, to avoid noise", () => {
    expect(errorOf(def({ url: "https://a.example/{{q}}" }, { parameters: "q | array | required" }))).toMatch(
      /^parameters: line 1:/,
    );
  });
});

describe("secret_headers", () => {
  it("must list headers that exist, once each", () => {
    expect(errorOf(def({ headers: { A: "x" } }, { secret_headers: ["B"] }))).toBe(
      "secret_headers: 'B' is not a header in request.headers",
    );
    expect(errorOf(def({ headers: { A: "x" } }, { secret_headers: ["A", "a"] }))).toBe(
      "secret_headers: 'a' is listed twice",
    );
    expect(errorOf(def({ headers: { A: "x" } }, { secret_headers: "A" }))).toBe(
      "secret_headers must be a list of header names",
    );
    expect(errorOf(def({ headers: { A: "x" } }, { secret_headers: [""] }))).toBe(
      "secret_headers[0] must be a header name",
    );
  });
});

describe("env and the write paths", () => {
  const manifest = (
    env: Record<string, string | undefined> = {},
    provisioned: string[] = [],
  ): ValidateToolDefinitionOptions => ({
    writePath: "manifest",
    env,
    isSecretProvisioned: (name) => provisioned.includes(name),
  });

  it("substitutes {{env.*}} on the manifest path, in url, headers, query and body", () => {
    const request = requestOf(
      def({
        url: "{{env.API_URL}}/search/{{q}}",
        headers: { "X-Key": "{{ env.PUBLIC_KEY }}" },
        query: { region: "{{env.REGION}}" },
        body: { region: "{{env.REGION}}", q: "{{q}}" },
      }),
      manifest({ API_URL: "https://api.example.com", PUBLIC_KEY: "pk", REGION: "eu" }),
    );
    expect(request).toEqual({
      method: "POST",
      url: "https://api.example.com/search/{{q}}",
      headers: { "X-Key": "pk" },
      query: { region: "eu" },
      body: { region: "eu", q: "{{q}}" },
    });
  });

  it("refuses a missing env var, naming it", () => {
    expect(errorOf(def({ url: "{{env.API_URL}}/x" }), manifest({ API_URL: undefined }))).toBe(
      "request.url: {{env.API_URL}}: environment variable API_URL is not set",
    );
  });

  it("refuses an env var the operator did not expose, naming it and the setting", () => {
    expect(errorOf(def({ url: "{{env.API_URL}}/x" }), manifest({ REGION: "eu" }))).toBe(
      "request.url: {{env.API_URL}}: API_URL is not exposed to manifests (list it in INSIKA_MANIFEST_ENV, the variables a manifest may read)",
    );
  });

  it("refuses env names that hold secrets", () => {
    for (const name of [
      "INSIKA_SECRET_API_TOKEN",
      "INSIKA_API_TOKEN",
      "insika_secret_x",
      "INSIKA_PROVIDER_SECRET_OPENAI",
    ]) {
      expect(errorOf(def({ headers: { "X-A": `{{env.${name}}}` } }), manifest({ [name]: "s3cret" }))).toBe(
        `request.headers.X-A: {{env.${name}}} is not allowed: env may not name INSIKA_SECRET_*, INSIKA_PROVIDER_SECRET_* or INSIKA_API_TOKEN (that would put a secret on disk; use {{secret.*}} in a secret header)`,
      );
    }
  });

  it("refuses an env value that would read as a placeholder", () => {
    expect(errorOf(def({ query: { a: "{{env.X}}" } }), manifest({ X: "{{secret.k}}" }))).toBe(
      "request.query.a: {{env.X}}: the value of X contains '{{', which would be read as a placeholder",
    );
  });

  it("leaves {{env.*}} literal elsewhere, which fails the URL check", () => {
    for (const writePath of ["api", "config", "mcp"] as const) {
      const error = errorOf(def({ url: "{{env.API_URL}}/search" }), {
        writePath,
        env: { API_URL: "https://a.example" },
      });
      expect(error.split("; ")).toContain("url must be http/https");
    }
    expect(errorOf(def({ url: "https://{{env.HOST}}/x" })).split("; ")).toContain("url must be http/https");
    expect(errorOf(def({ headers: { "X-A": "{{env.KEY}}" } }))).toBe(
      "request.headers.X-A: {{env.KEY}} is resolved only on the manifest write path; write the value literally",
    );
  });

  it("on the manifest path, refuses a secret that is not provisioned", () => {
    const input = def(
      { headers: { Authorization: "Bearer {{secret.api_token}}" } },
      { secret_headers: ["Authorization"] },
    );
    expect(errorOf(input, manifest())).toBe(
      "request.headers.Authorization: secret 'api_token' is not provisioned (set INSIKA_SECRET_API_TOKEN or add 'api_token' to INSIKA_SECRETS_DIR)",
    );
    expect(requestOf(input, manifest({}, ["api_token"])).headers.Authorization).toBe("Bearer {{secret.api_token}}");
    // Without a way to check, the manifest path refuses (fail closed); other paths accept the reference.
    expect(errorOf(input, { writePath: "manifest" })).toMatch(/secret 'api_token' is not provisioned/);
    expect(requestOf(input, { writePath: "api" }).headers.Authorization).toBe("Bearer {{secret.api_token}}");
    expect(
      errorOf(input, {
        writePath: "manifest",
        isSecretProvisioned: () => {
          throw new Error("x");
        },
      }),
    ).toMatch(/not provisioned/);
  });
});
