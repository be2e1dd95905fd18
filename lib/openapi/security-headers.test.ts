import { describe, expect, it } from "vitest";
import { secretName, securityHeaders } from "./security-headers";

const SCHEMES = {
  bearer: { type: "http", scheme: "bearer" },
  digest: { type: "http", scheme: "digest" },
  key: { type: "apiKey", in: "header", name: "X-Key" },
  other_key: { type: "apiKey", in: "header", name: "x-key" },
  query_key: { type: "apiKey", in: "query", name: "k" },
  bad_header: { type: "apiKey", in: "header", name: "X Key\r\n" },
  tls: { type: "mutualTLS" },
};
const opts = { importName: "my-api" };

describe("securityHeaders", () => {
  it("no requirement, or an empty alternative, needs no header", () => {
    expect(securityHeaders([], SCHEMES, opts)).toStrictEqual({ ok: true, headers: {}, secretHeaders: [], secrets: [] });
    expect(securityHeaders([{ query_key: [] }, {}], SCHEMES, opts)).toMatchObject({ ok: true, headers: {} });
  });

  it("takes the first alternative headers can carry, AND-ing its schemes", () => {
    const r = securityHeaders([{ digest: [] }, { bearer: [], key: [] }], SCHEMES, opts);
    expect(r).toStrictEqual({
      ok: true,
      headers: { Authorization: "Bearer {{secret.my_api_bearer}}", "X-Key": "{{secret.my_api_key}}" },
      secretHeaders: ["Authorization", "X-Key"],
      secrets: [
        { secret: "my_api_bearer", scheme: "bearer", header: "Authorization" },
        { secret: "my_api_key", scheme: "key", header: "X-Key" },
      ],
    });
  });

  it.each([
    [
      [{ query_key: [] }],
      "security: scheme 'query_key' puts an API key in the query parameter 'k': secrets are only allowed in headers",
    ],
    [[{ digest: [] }], "security: scheme 'digest' is HTTP 'digest' authentication, which an import cannot carry"],
    [[{ tls: [] }], "security: scheme 'tls' is of type 'mutualTLS', which an import cannot carry"],
    [[{ ghost: [] }], "security: scheme 'ghost' is not defined in the document"],
    [[{ key: [], other_key: [] }], "security: two schemes of one requirement both need header 'x-key'"],
    [[{ bad_header: [] }], "puts an API key in 'header'"],
    [JSON.parse('[{"__proto__": []}]') as Record<string, unknown>[], "security: scheme '__proto__' is not defined"],
  ])("refuses %j", (security, message) => {
    const r = securityHeaders(security, SCHEMES, opts);
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.problem).toContain(message);
  });

  it("secret names follow the secret-name rule; auth overrides them", () => {
    expect(secretName("OAuth2.Client-Credentials", { importName: "2fa" })).toBe("s_2fa_oauth2_client_credentials");
    expect(secretName("bearer", { importName: "x", auth: { bearer: "MY_TOKEN" } })).toBe("MY_TOKEN");
  });
});
