import { describe, expect, it } from "vitest";
import { clipText, finalizeRecord, maskHeaders, redactContent, type CallRecord } from "./call-record";
import { extractResult } from "./extract-result";

const received = (status: number, body: string | Buffer, truncated = false) => ({
  status,
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  truncated,
});

describe("extractResult (DESIGN D2)", () => {
  it("json_path: a value nested too deeply to pass on is an error naming the path, not a throw", () => {
    const body = received(200, `{"data":${"[".repeat(100_000)}${"]".repeat(100_000)},"id":7}`);
    expect(extractResult({ extract: "json_path", path: "$.data" }, body)).toEqual({
      ok: false,
      error: "the value at $.data is nested too deeply to be read",
      content: JSON.stringify({ error: "the value at $.data is nested too deeply to be read", status: 200 }),
    });
    expect(extractResult({ extract: "json_path", path: "$.id" }, body)).toEqual({ ok: true, content: "7" });
  });

  it("body_raw: a JSON body as received, text as a JSON string, empty as null", () => {
    const raw = { extract: "body_raw" } as const;
    expect(extractResult(raw, received(200, '{"id": 12345678901234567890}'))).toEqual({
      ok: true,
      content: '{"id": 12345678901234567890}',
    });
    expect(extractResult(raw, received(200, 'plain "text"'))).toEqual({ ok: true, content: '"plain \\"text\\""' });
    expect(extractResult(raw, received(204, ""))).toEqual({ ok: true, content: "null" });
    expect(extractResult(raw, received(200, "\ufeff[1]"))).toEqual({ ok: true, content: "[1]" });
  });

  it("json_path: the value at the path ($. and bare), null when missing, error for a non-JSON body", () => {
    const body = received(200, JSON.stringify({ results: [{ id: 1 }], meta: { n: 1 } }));
    expect(extractResult({ extract: "json_path", path: "$.results" }, body)).toEqual({
      ok: true,
      content: '[{"id":1}]',
    });
    expect(extractResult({ extract: "json_path", path: "results[0].id" }, body)).toEqual({ ok: true, content: "1" });
    expect(extractResult({ extract: "json_path", path: "$.missing.deep" }, body)).toEqual({
      ok: true,
      content: "null",
    });
    const html = extractResult({ extract: "json_path", path: "$.results" }, received(200, "<html>oops</html>"));
    expect(html.ok).toBe(false);
    expect(JSON.parse(html.content)).toEqual({
      error: "the response is not JSON, so $.results cannot be read",
      status: 200,
      body: "<html>oops</html>",
    });
  });

  it("json_path: the same path text read again (parsed once) gives the same answers", () => {
    const body = received(200, JSON.stringify({ a: { b: [10, 20] } }));
    for (let i = 0; i < 2; i++) {
      expect(extractResult({ extract: "json_path", path: "$.a.b[1]" }, body)).toEqual({ ok: true, content: "20" });
      expect(extractResult({ extract: "json_path", path: "$.a[" }, body)).toEqual({ ok: true, content: "null" });
      expect(extractResult({ extract: "json_path", path: "$.a.b" }, received(200, "[1]"))).toEqual({
        ok: true,
        content: "null",
      });
    }
  });

  it('status: {"status":N}', () => {
    expect(extractResult({ extract: "status" }, received(201, "whatever"))).toEqual({
      ok: true,
      content: '{"status":201}',
    });
  });

  it("non-2xx: small JSON body parsed", () => {
    const r = extractResult({ extract: "json_path", path: "$.x" }, received(404, '{"message":"no such item"}'));
    expect(r).toEqual({
      ok: false,
      error: "HTTP 404",
      content: JSON.stringify({ error: "HTTP 404", status: 404, body: { message: "no such item" } }),
    });
  });

  it("non-2xx: a JSON body over 2 KiB and a text body show their first 200 characters", () => {
    const big = JSON.stringify({ message: "é".repeat(3000) });
    const r = extractResult({ extract: "body_raw" }, received(500, big));
    const parsed = JSON.parse(r.content) as { error: string; status: number; body: string };
    expect(parsed.error).toBe("HTTP 500");
    expect(parsed.status).toBe(500);
    expect(parsed.body).toBe(big.slice(0, 200));
    const text = JSON.parse(extractResult({ extract: "status" }, received(503, "🎉".repeat(300))).content) as {
      body: string;
    };
    expect([...text.body]).toHaveLength(200);
    expect(JSON.parse(extractResult({ extract: "status" }, received(502, "")).content)).toEqual({
      error: "HTTP 502",
      status: 502,
    });
  });

  it("a body cut at the cap is an error, never a document", () => {
    const r = extractResult({ extract: "body_raw" }, received(200, '{"a":', true));
    expect(r.ok).toBe(false);
    expect(JSON.parse(r.content)).toEqual({ error: "the response body is larger than 1 MiB (cut off)", status: 200 });
  });
});

describe("call record helpers", () => {
  it("clips without splitting a surrogate pair", () => {
    expect(clipText("abc", 5)).toEqual({ text: "abc", clipped: false });
    expect(clipText("ab🎉cd", 3)).toEqual({ text: "ab", clipped: true });
  });

  it("masks secret headers whatever their case", () => {
    expect(maskHeaders({ Authorization: "Bearer x", "X-A": "1" }, ["authorization"])).toEqual({
      Authorization: "[secret]",
      "X-A": "1",
    });
  });

  it("maskHeaders copies every header as an own key, `__proto__` included, with or without secrets", () => {
    const headers = JSON.parse('{"__proto__": "p", "Authorization": "Bearer x"}') as Record<string, string>;
    for (const [secrets, auth] of [
      [[], "Bearer x"],
      [["AUTHORIZATION"], "[secret]"],
    ] as const) {
      const out = maskHeaders(headers, secrets);
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect(Object.keys(out)).toEqual(["__proto__", "Authorization"]);
      expect(Object.getOwnPropertyDescriptor(out, "__proto__")).toEqual({
        value: "p",
        enumerable: true,
        writable: true,
        configurable: true,
      });
      expect(out.Authorization).toBe(auth);
      expect(out).not.toBe(headers);
    }
    expect(maskHeaders(JSON.parse('{"__proto__": "s"}') as Record<string, string>, ["__PROTO__"])).toEqual(
      JSON.parse('{"__proto__": "[secret]"}'),
    );
  });

  it("redacts secrets from content in any JSON spelling, keeping the text otherwise", () => {
    expect(redactContent('{"a":"s3cret","n":12345678901234567890}', ["s3cret"])).toBe(
      '{"a":"[secret]","n":12345678901234567890}',
    );
    expect(JSON.parse(redactContent('{"a":"\\u0073\\u0033cret"}', ["s3cret"]))).toEqual({ a: "[secret]" });
    expect(redactContent('{"a":"x"}', [])).toBe('{"a":"x"}');
  });

  it("finalizeRecord clips the result and redacts every field", () => {
    const record: CallRecord = {
      call_id: "c1",
      tool: "t",
      kind: "data",
      arguments: { note: "s3cret" },
      request: { method: "GET", url: "http://h/?k=s3cret", headers: {} },
      status: 200,
      ok: true,
      duration_ms: 1,
      result: null,
    };
    const out = finalizeRecord(record, JSON.stringify("x".repeat(9000)), ["s3cret"]);
    expect(out.result?.length).toBe(8192);
    expect(out.result_truncated).toBe(true);
    expect(JSON.stringify(out)).not.toContain("s3cret");
    expect(out.request?.url).toBe("http://h/?k=[secret]");
  });
});
