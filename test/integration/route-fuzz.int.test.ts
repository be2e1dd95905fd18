/**
 * Hostile input against every route under app/v1 (found by walking the tree, so a new route
 * is covered without editing this file): malformed percent-encodings, deep nesting, bodies
 * over the caps, wrong types, invalid UTF-8, odd methods and content types. Seeded (set
 * FUZZ_SEED to replay) and bounded in count. Never a 5xx; every error is the envelope (or
 * OpenAI's shape on the OpenAI-compatible routes); the server log has no uncaught exception.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, type RawRequest, type RawResponse } from "../support/raw-request";
import { startServer, type TestServer } from "../support/server";

const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const RANDOM_CASES = 400;

interface RouteFile {
  /** e.g. /v1/tools/[name]/test */
  template: string;
  methods: string[];
  /** The handler reads a JSON body (readJson / readBody). */
  readsBody: boolean;
}

/** Every route.ts under app/v1 with the HTTP methods it exports. */
function discoverRoutes(): RouteFile[] {
  const root = path.join(process.cwd(), "app");
  const found: RouteFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        const methods = [
          ...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g),
        ].map((m) => m[1]!);
        const template =
          "/" +
          path
            .relative(root, path.dirname(full))
            .split(path.sep)
            .filter((s) => !/^\(.*\)$/.test(s))
            .join("/");
        if (template.includes("[...")) continue; // the catch-all for unknown paths: covered by every odd path below
        found.push({ template, methods, readsBody: /\bread(Json|Body)\(/.test(source) });
      }
    }
  };
  walk(path.join(root, "v1"));
  return found;
}

/** mulberry32: small, seeded, good enough to pick cases. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

const BAD_SEGMENTS = ["%ZZ", "%", "%E", "%ED%A0%80", "%C0%AF", "%FF", "a%2", "%%", "%u0041"];
const ODD_SEGMENTS = [
  "%00",
  "..",
  "%2e%2e",
  "%2F",
  "x".repeat(3000),
  "%F0%9F%98%80",
  "__proto__",
  "constructor",
  "manifest",
  "%20",
  "%27%3B%20drop%20table%20tools%3B--",
  "a%3Fb%23c",
];

const deepArrays = (n: number) =>
  `{"name":${"[".repeat(n)}${"]".repeat(n)},"message":${"[".repeat(n)}${"]".repeat(n)}}`;
const deepObjects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

const BODIES: Array<{ label: string; body: Buffer }> = [
  { label: "deep arrays", body: Buffer.from(deepArrays(5000)) },
  { label: "deep objects", body: Buffer.from(deepObjects(5000)) },
  { label: "deep in tools", body: Buffer.from(`{"tools":[{"name":"t","parameters":${deepObjects(3000)}}]}`) },
  {
    label: "invalid utf-8",
    body: Buffer.from([
      0x7b, 0x22, 0x6d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d,
    ]),
  },
  { label: "not json", body: Buffer.from("{nope") },
  { label: "empty", body: Buffer.alloc(0) },
  { label: "array", body: Buffer.from("[]") },
  { label: "string", body: Buffer.from('"str"') },
  { label: "number", body: Buffer.from("123e999") },
  { label: "null", body: Buffer.from("null") },
  {
    label: "wrong types",
    body: Buffer.from(
      '{"name":{"toString":1},"message":5,"agent_id":[],"tools":"x","model":7,"decision":true,"url":{},"messages":{},"input":9}',
    ),
  },
  {
    label: "proto keys",
    body: Buffer.from('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"tools":[{"__proto__":null}]}'),
  },
  { label: "huge string", body: Buffer.from(`{"message":"${"a".repeat(300_000)}","name":"${"b".repeat(100_000)}"}`) },
  { label: "lone surrogates", body: Buffer.from('{"message":"\\ud800","name":"\\udfff"}') },
  { label: "nul bytes", body: Buffer.from('{"message":"a\\u0000b","name":"a\\u0000"}') },
];

const CONTENT_TYPES = [
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=latin1",
  "",
];
const EXTRA_METHODS = ["PATCH", "DELETE", "PUT", "POST", "OPTIONS", "HEAD", "TRACE"];

const isOpenAIRoute = (p: string) => /^\/v1\/(chat\/completions|responses)(\?|$)/.test(p);

function fill(template: string, segment: () => string): string {
  return template.replace(/\[[^\]]+\]/g, segment);
}

describe("hostile requests to every /v1 route", () => {
  let server: TestServer;
  const routes = discoverRoutes();
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.stop());

  async function send(request: RawRequest): Promise<RawResponse> {
    const res = await rawRequest(server.port, request);
    check(request, res);
    return res;
  }

  function check(request: RawRequest, res: RawResponse) {
    const what = `${request.method} ${request.path.slice(0, 120)} (seed ${SEED})`;
    // A hang-up is acceptable only for a request with a body the server had a reason not to read.
    if (res.reset && !request.body?.length) problems.push(`${what}: connection reset without an answer`);
    if (res.reset) return;
    if (res.status >= 500) problems.push(`${what}: ${res.status} ${res.body.slice(0, 200)}`);
    if (res.status < 400 || request.method === "HEAD") return;
    let body: any;
    try {
      body = JSON.parse(res.body);
    } catch {
      problems.push(`${what}: ${res.status} is not JSON: ${JSON.stringify(res.body.slice(0, 100))}`);
      return;
    }
    const error = body?.error;
    const ok = isOpenAIRoute(request.path)
      ? typeof error?.message === "string" && typeof error?.type === "string"
      : typeof error?.code === "string" && typeof error?.message === "string";
    if (!ok) problems.push(`${what}: ${res.status} not the error envelope: ${res.body.slice(0, 200)}`);
  }

  const auth = () => ({ authorization: `Bearer ${server.token}` });

  it("finds the routes by walking app/v1", () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.map((r) => r.template)).toEqual(
      expect.arrayContaining(["/v1/tools/[name]", "/v1/sessions/[id]/turns", "/v1/chat/completions"]),
    );
  });

  it("answers malformed percent-encodings in a path segment with 400, before authentication", async () => {
    for (const route of routes.filter((r) => r.template.includes("["))) {
      for (const method of route.methods) {
        for (const bad of BAD_SEGMENTS) {
          for (const headers of [{}, auth()]) {
            const res = await send({ method, path: fill(route.template, () => bad), headers });
            expect(res.status, `${method} ${route.template} with ${bad}`).toBe(400);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("refuses bodies nested too deep with 400 and bodies over the cap with 413, streamed or declared", async () => {
    for (const route of routes.filter((r) => r.readsBody)) {
      for (const method of route.methods.filter((m) => m !== "GET" && m !== "DELETE")) {
        const p = fill(route.template, () => "fuzz_x");
        const deep = await send({
          method,
          path: p,
          headers: { ...auth(), "content-type": "application/json" },
          body: BODIES[0]!.body,
        });
        expect(deep.status, `${method} ${p} deep`).toBe(400);
        const big = Buffer.alloc(17 * 1024 * 1024, 0x20);
        // Declared: refused on Content-Length alone, before any of the body is read.
        const declared = await send({
          method,
          path: p,
          headers: { ...auth(), "content-type": "application/json" },
          body: big,
          sendAtMost: 1024,
        });
        expect(declared.status, `${method} ${p} Content-Length 17 MiB`).toBe(413);
        // Streamed: refused once the cap is passed; the server may hang up on the rest of the upload.
        const streamed = await send({
          method,
          path: p,
          headers: { ...auth(), "content-type": "application/json" },
          body: big,
          chunked: true,
        });
        expect([413, 0], `${method} ${p} 17 MiB chunked`).toContain(streamed.status);
      }
    }
    expect(problems).toEqual([]);
  });

  it("never answers 5xx to a seeded mix of hostile segments, bodies, methods and content types", async () => {
    const rand = prng(SEED);
    for (let i = 0; i < RANDOM_CASES; i++) {
      const route = rand.pick(routes);
      const method = rand.next() < 0.6 ? rand.pick(route.methods) : rand.pick(EXTRA_METHODS);
      const segment = () =>
        rand.next() < 0.3 ? rand.pick(BAD_SEGMENTS) : rand.next() < 0.6 ? rand.pick(ODD_SEGMENTS) : `fuzz_${i}`;
      const query =
        rand.next() < 0.3
          ? `?${rand.pick(["status", "agent_id", "turn_id", "turn"])}=${rand.pick([...BAD_SEGMENTS, ...ODD_SEGMENTS])}`
          : "";
      const withBody = method !== "GET" && method !== "HEAD" && rand.next() < 0.9;
      const contentType = rand.pick(CONTENT_TYPES);
      const headers: Record<string, string> = rand.next() < 0.9 ? auth() : {};
      if (contentType) headers["content-type"] = contentType;
      if (rand.next() < 0.3) headers.accept = "text/event-stream";
      await send({
        method,
        path: fill(route.template, segment) + query,
        headers,
        body: withBody ? rand.pick(BODIES).body : undefined,
        chunked: rand.next() < 0.3,
      });
    }
    expect(problems).toEqual([]);
  });

  it("answers unknown /v1 paths (also after dot-segment normalisation) with a 404 envelope", async () => {
    for (const p of ["/v1/nope", "/v1/tools/x/nope", "/v1/turns/../resume", "/v1/tools/%2e%2e/versions"]) {
      for (const method of ["GET", "POST", "PATCH"]) {
        const res = await send({ method, path: p, headers: auth() });
        expect(res.status, `${method} ${p}`).toBe(404);
      }
    }
    expect(problems).toEqual([]);
  });

  it("leaves no uncaught exception in the server log", () => {
    const log = server.output();
    expect(log).not.toMatch(/⨯|uncaught|unhandled|RangeError|Maximum call stack|TypeError|URIError/i);
  });
});
