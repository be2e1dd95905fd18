import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { staticSecrets } from "@/lib/secrets/secret-source";
import type { DataToolDefinition } from "@/lib/tools/types";
import { executeDataTool, type DataToolResult } from "./execute-data-tool";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { dataTool } from "@/test/support/data-tool";
import { json, startLoopbackServer, type LoopbackServer } from "@/test/support/loopback-server";

// Characters that URL encoding, base64 and JSON escaping each spell differently.
const SECRET = 'Sk/LEAK+v4lue="42"';
const FORMS = [
  SECRET,
  encodeURIComponent(SECRET),
  Buffer.from(SECRET).toString("base64"),
  JSON.stringify(SECRET).slice(1, -1),
];

function leaks(text: string): string[] {
  return FORMS.filter((form) => text.includes(form));
}

describe("secrets never leak", () => {
  const backends: LoopbackServer[] = [];
  let logged: string[] = [];

  beforeEach(() => {
    logged = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      logged.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(backends.splice(0).map((b) => b.close()));
  });

  it("a full call whose backend echoes the secret in a redirect Location and in its bodies", async () => {
    const other = await startLoopbackServer((req, res) => json(res, { got: req.headers["x-api-key"] ?? null }));
    backends.push(other);
    const main = await startLoopbackServer((req, res) => {
      const key = String(req.headers["x-api-key"] ?? "");
      const url = new URL(req.url, "http://x");
      if (url.pathname === "/start") {
        res.writeHead(302, { location: `/echo?token=${encodeURIComponent(key)}` }).end();
      } else if (url.pathname === "/echo") {
        json(res, {
          status: "SUBSCRIBED",
          message: `your key is ${key}`,
          b64: Buffer.from(key).toString("base64"),
          query: url.search,
        });
      } else if (url.pathname === "/fail") {
        json(res, { error: `bad key ${key}` }, 401);
      } else if (url.pathname === "/cross") {
        res.writeHead(307, { location: `${other.origin}/steal?k=${encodeURIComponent(key)}` }).end();
      } else {
        res.writeHead(302, { location: `http://169.254.169.254/latest?k=${encodeURIComponent(key)}` }).end();
      }
    });
    backends.push(main);

    const tool = (path: string): DataToolDefinition =>
      dataTool({
        request: {
          method: "GET",
          url: `${main.origin}${path}`,
          headers: { "X-Api-Key": "{{secret.api_token}}" },
          query: {},
        },
        secret_headers: ["X-Api-Key"],
        halt_when: { json_path: "$.status", equals: ["SUBSCRIBED"], say: { json_path: "$.message" } },
      });
    const deps = { posture: DEV_POSTURE, secrets: staticSecrets({ api_token: SECRET }) };

    const results: DataToolResult[] = [];
    for (const path of ["/start", "/fail", "/cross", "/metadata"])
      results.push(await executeDataTool(tool(path), {}, {}, deps));

    // The calls really carried and echoed the secret (so the test can fail).
    expect(main.requests[0]?.headers["x-api-key"]).toBe(SECRET);
    expect(main.requests[1]?.url).toBe(`/echo?token=${encodeURIComponent(SECRET)}`);
    const [echo, fail, cross, metadata] = results as [DataToolResult, DataToolResult, DataToolResult, DataToolResult];
    expect(echo.ok && echo.halt?.say).toBe("your key is [secret]");
    expect(echo.record.request?.headers["X-Api-Key"]).toBe("[secret]");
    expect(echo.record.request?.url).toBe(`${main.origin}/echo?token=[secret]`);
    expect(fail.ok).toBe(false);
    // The secret header is dropped on a cross-origin redirect.
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]?.headers["x-api-key"]).toBeUndefined();
    expect(cross.content).toBe('{"got":null}');
    expect(metadata.record.egress?.verdict).toBe("blocked");
    expect(logged.join("")).toContain("blocked by egress");

    for (const r of results) {
      expect(leaks(JSON.stringify(r.record))).toEqual([]);
      expect(leaks(r.content)).toEqual([]);
      expect(leaks(r.ok ? JSON.stringify(r.halt ?? null) : r.error)).toEqual([]);
    }
    expect(leaks(logged.join(""))).toEqual([]);
  });

  it("a model argument equal to the secret is redacted from the record too", async () => {
    const b = await startLoopbackServer((req, res) =>
      json(res, { q: new URL(req.url, "http://x").searchParams.get("q") }),
    );
    backends.push(b);
    const t = dataTool({
      parameters: { type: "object", properties: { q: { type: "string" } } },
      request: {
        method: "GET",
        url: `${b.origin}/s`,
        headers: { Authorization: "Bearer {{secret.api_token}}" },
        query: { q: "{{q}}" },
      },
      secret_headers: ["Authorization"],
    });
    const r = await executeDataTool(
      t,
      { q: SECRET },
      {},
      { posture: DEV_POSTURE, secrets: staticSecrets({ api_token: SECRET }) },
    );
    expect(r.ok).toBe(true);
    expect(leaks(JSON.stringify(r.record))).toEqual([]);
    expect(leaks(r.content)).toEqual([]);
  });
});
