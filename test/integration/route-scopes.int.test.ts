/**
 * The route-by-scope table (issue 16): every route file under app/ (found by walking the
 * tree) and every HTTP method it exports has an entry below saying who may call it; a route
 * or method on disk without an entry fails this test, so a route added later must declare
 * its scope here as well as in its wrapper. Each entry is called with a key of each scope and
 * with a missing, unknown, revoked and expired key: the declared scopes get through (a 404 or
 * 422 for a placeholder id is fine), the others get 403 naming the needed scope, the bad keys
 * 401 naming why. The studio-api routes are called with a Studio session of each key.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, type Db } from "@/db/client";
import { openServerDb } from "../support/test-database";
import { SCOPES, type Scope } from "@/lib/access/scopes";
import { SESSION_COOKIE, issueSessionCookie } from "@/lib/api/auth";
import { startServer, type TestServer } from "../support/server";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/** Who may call a route: these scopes (admin always may), anyone ("public"), or nobody ("refused": 405 for every caller). */
type Access = readonly Scope[] | "public" | "refused";

const CATALOG: readonly Scope[] = ["traces:read", "tools:write", "agents:write"];
const SESSIONS: readonly Scope[] = ["traces:read", "turns:run"];
const APPROVALS: readonly Scope[] = ["approvals:decide", "traces:read"];

/** Every method not listed is "refused" (the file answers 405 in the envelope through refuseMethods). */
function only(served: Partial<Record<Method, Access>>): Record<Method, Access> {
  return Object.fromEntries(METHODS.map((m) => [m, served[m] ?? "refused"])) as Record<Method, Access>;
}
const everyMethod = (access: Access) => only(Object.fromEntries(METHODS.map((m) => [m, access])));

/** The table: route (as its folder under app/ spells it) -> method -> who may call it. Keep docs/api.md's table in sync. */
export const ROUTE_SCOPES: Record<string, Partial<Record<Method, Access>>> = {
  "/v1/health": only({ GET: "public" }),
  "/v1/ready": only({ GET: "public" }),
  "/v1/[...unknown]": everyMethod("public"),
  "/v1/keys": only({ GET: ["admin"], POST: ["admin"] }),
  "/v1/keys/[id]": only({ DELETE: ["admin"] }),
  "/v1/audit": only({ GET: ["admin"] }),
  "/v1/tools": only({ GET: CATALOG }),
  "/v1/tools/[name]": only({ GET: CATALOG, PUT: ["tools:write"], DELETE: ["tools:write"] }),
  "/v1/tools/[name]/versions": only({ GET: ["traces:read", "tools:write"] }),
  "/v1/tools/[name]/test": only({ POST: ["tools:write"] }),
  "/v1/tools/manifest": only({ POST: ["tools:write"], GET: CATALOG, PUT: ["tools:write"], DELETE: ["tools:write"] }),
  "/v1/mcp/import": only({ POST: ["tools:write"] }),
  "/v1/openapi/import": only({ POST: ["tools:write"] }),
  "/v1/agents": only({ GET: CATALOG }),
  "/v1/agents/[id]": only({ GET: CATALOG, PUT: ["agents:write"], DELETE: ["agents:write"] }),
  "/v1/agents/[id]/tools": only({ GET: CATALOG }),
  "/v1/agents/[id]/mcp": only({ GET: ["turns:run"], POST: ["turns:run"], DELETE: ["turns:run"] }),
  "/v1/skills": only({ GET: CATALOG }),
  "/v1/skills/[name]": only({ GET: CATALOG, PUT: ["agents:write"], DELETE: ["agents:write"] }),
  "/v1/approvals": only({ GET: APPROVALS }),
  "/v1/approvals/[id]": only({ GET: APPROVALS, POST: ["approvals:decide"] }),
  "/v1/doctor": only({ GET: ["traces:read"] }),
  "/v1/sessions": only({ GET: SESSIONS, POST: ["turns:run"] }),
  "/v1/sessions/[id]": only({ GET: SESSIONS }),
  "/v1/sessions/[id]/trace": only({ GET: SESSIONS }),
  "/v1/sessions/[id]/turns": only({ POST: ["turns:run"] }),
  "/v1/turns/[id]/resume": only({ POST: ["turns:run"] }),
  "/v1/turns/[id]/events": only({ GET: SESSIONS }),
  "/v1/chat/completions": only({ POST: ["turns:run"] }),
  "/v1/responses": only({ POST: ["turns:run"] }),
  "/studio-api/sessions/[id]/turns": only({ POST: ["turns:run"] }),
  "/studio-api/sessions/[id]/calls/[callId]": only({ GET: SESSIONS }),
  "/metrics": only({ GET: ["traces:read"] }),
  "/demo-backend/catalog": only({ GET: "public" }),
  "/demo-backend/orders/[id]": only({ GET: "public" }),
  "/demo-backend/subscribe": only({ POST: "public" }),
};

/** Routes answering errors in OpenAI's shape `{error:{message,type,param,code}}`. */
const OPENAI_SHAPED = new Set(["/v1/chat/completions", "/v1/responses"]);

/** Every route.ts under app/ (route groups dropped) with the HTTP methods its source exports. */
function routesOnDisk(): Map<string, Method[]> {
  const root = path.join(process.cwd(), "app");
  const found = new Map<string, Method[]>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^route\.(ts|tsx|js)$/.test(entry.name)) {
        const segments = path
          .relative(root, dir)
          .split(path.sep)
          .filter((s) => s && !/^\(.*\)$/.test(s));
        found.set("/" + segments.join("/"), exportedMethods(fs.readFileSync(full, "utf8")));
      }
    }
  };
  walk(root);
  return found;
}

/** The HTTP method names a route file exports: `export const GET =`, `export const { POST } =`, `export { x as GET }`, `export async function GET`. */
export function exportedMethods(source: string): Method[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:async\s+)?(?:const|let|function)\s+([A-Z]+)\b/g)) names.add(m[1]!);
  for (const m of source.matchAll(/export\s+(?:const|let)\s*\{([^}]*)\}/g))
    for (const n of m[1]!.split(",")) names.add(n.trim());
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g))
    for (const n of m[1]!.split(","))
      names.add(
        n
          .trim()
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      );
  const methods = METHODS.filter((m) => names.has(m));
  const stray = [...names].filter((n) => ["HEAD", "OPTIONS"].includes(n));
  if (stray.length) throw new Error(`a route exports ${stray.join(", ")}: add it to METHODS and the table`);
  return methods;
}

/** A URL for a route: each dynamic segment filled with a placeholder that names nothing. */
const urlOf = (route: string) =>
  route.replace(/\[\.\.\.[^\]]+\]/g, "no_such_endpoint").replace(/\[([^\]]+)\]/g, "no_such_$1");

/** The scopes a 403 message names (`… needs scope a or b (this key has …)`). */
function scopesNamed(message: string): string[] | undefined {
  const match = /needs scope (.+?) \(this key has/.exec(message);
  return match?.[1]?.split(" or ").sort();
}

/** Renders the table as the markdown rows of docs/api.md's route table. */
export function renderTable(): string[] {
  return Object.entries(ROUTE_SCOPES).flatMap(([route, methods]) =>
    METHODS.filter((m) => methods[m] !== undefined && methods[m] !== "refused").map((m) => {
      const access = methods[m] as readonly Scope[] | "public";
      const who =
        access === "public"
          ? "public (no key)"
          : ["admin", ...access.filter((s) => s !== "admin")].map((s) => `\`${s}\``).join(", ");
      return `| ${m} | \`${urlOf(route)
        .replace(/no_such_endpoint/, "*")
        .replace(/no_such_(\w+)/g, ":$1")}\` | ${who} |`;
    }),
  );
}

describe("the route-by-scope table", () => {
  it("has an entry for every route and method on disk, and none for a route that is gone", () => {
    const disk = routesOnDisk();
    const onDisk = [...disk].flatMap(([route, methods]) => methods.map((m) => `${m} ${route}`)).sort();
    const inTable = Object.entries(ROUTE_SCOPES)
      .flatMap(([route, methods]) => METHODS.filter((m) => methods[m] !== undefined).map((m) => `${m} ${route}`))
      .sort();
    expect(
      onDisk.filter((x) => !inTable.includes(x)),
      "routes/methods without a table entry",
    ).toEqual([]);
    expect(
      inTable.filter((x) => !onDisk.includes(x)),
      "table entries no route file exports",
    ).toEqual([]);
  });

  it("finds the exports of every style a route file uses", () => {
    expect(
      exportedMethods("export const GET = route(...);\nexport const { POST, PATCH } = refuseMethods([]);"),
    ).toEqual(["GET", "POST", "PATCH"]);
    expect(exportedMethods("export { unknown as GET, unknown as DELETE };\nexport async function PUT() {}")).toEqual([
      "GET",
      "PUT",
      "DELETE",
    ]);
    expect(() => exportedMethods("export const OPTIONS = x;")).toThrow(/OPTIONS/);
  });

  it("is the table docs/api.md shows", () => {
    const doc = fs.readFileSync(path.join(process.cwd(), "docs/api.md"), "utf8");
    const missing = renderTable().filter((row) => !doc.includes(row));
    expect(missing, `docs/api.md lacks these rows of the route table:\n${renderTable().join("\n")}`).toEqual([]);
  });
});

describe("every route answers each key as the table says", () => {
  let server: TestServer;
  let db: Db;
  /** One key per scope, and the four keys that must be refused with 401. */
  const good = new Map<Scope, { id: string; key: string }>();
  const bad = {} as Record<"unknown" | "revoked" | "expired", { id: string; key: string }>;
  /** A Studio session cookie per key label. */
  const cookies = new Map<string, string>();
  const keyRow = async (id: string) =>
    (await server.api("GET", "/v1/keys")).body.keys.find((k: { id: string }) => k.id === id);

  beforeAll(async () => {
    server = await startServer();
    db = openServerDb(server);
    const create = async (body: Record<string, unknown>) => {
      const res = await server.api("POST", "/v1/keys", body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { id: res.body.id as string, key: res.body.key as string };
    };
    for (const scope of SCOPES) good.set(scope, await create({ name: `table ${scope}`, scopes: [scope] }));
    bad.revoked = await create({ name: "table revoked", scopes: ["admin"] });
    bad.expired = await create({
      name: "table expired",
      scopes: ["admin"],
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    bad.unknown = { id: "key_never_created", key: "insk_thisKeyWasNeverCreatedAnywhere0000000000" };
    // Studio sessions of the keys that will go bad are issued while they are still good.
    cookies.set("revoked", await issueSessionCookie(db, server.dataDir, bad.revoked.id));
    cookies.set("expired", await issueSessionCookie(db, server.dataDir, bad.expired.id));
    for (const [scope, { id }] of good) cookies.set(scope, await issueSessionCookie(db, server.dataDir, id));
    expect((await server.api("DELETE", `/v1/keys/${bad.revoked.id}`)).status).toBe(200);
    const expiresAt = Date.parse((await keyRow(bad.expired.id)).expires_at);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now() + 200)));
  });
  afterAll(async () => {
    if (db) await closeDb(db);
    await server?.stop();
  });

  type Caller = {
    label: string;
    scope?: Scope;
    headers: Record<string, string>;
    why?: "missing" | "unknown" | "revoked" | "expired";
  };

  function callers(studio: boolean, method: Method): Caller[] {
    const write = method !== "GET";
    // A Studio write must come from the Studio's own origin (studio-auth.int.test.ts checks the refusals).
    const base: Record<string, string> = studio && write ? { origin: server.url } : {};
    const credential = (who: string, value: string | undefined): Record<string, string> =>
      value === undefined
        ? {}
        : studio
          ? { cookie: `${SESSION_COOKIE}=${value}` }
          : { authorization: `Bearer ${value}` };
    const forged = `${Date.now() + 3600_000}.${"a".repeat(32)}.key_never_created.${"b".repeat(64)}`;
    return [
      ...SCOPES.map((scope) => ({
        label: scope,
        scope,
        headers: { ...base, ...credential(scope, studio ? cookies.get(scope) : good.get(scope)!.key) },
      })),
      { label: "no key", why: "missing" as const, headers: base },
      {
        label: "unknown key",
        why: "unknown" as const,
        headers: { ...base, ...credential("unknown", studio ? forged : bad.unknown.key) },
      },
      {
        label: "revoked key",
        why: "revoked" as const,
        headers: { ...base, ...credential("revoked", studio ? cookies.get("revoked") : bad.revoked.key) },
      },
      {
        label: "expired key",
        why: "expired" as const,
        headers: { ...base, ...credential("expired", studio ? cookies.get("expired") : bad.expired.key) },
      },
      // A bearer key does not open a cookie route (and a cookie would not open a bearer route).
      ...(studio
        ? [
            {
              label: "bearer admin key on a cookie route",
              why: "missing" as const,
              headers: { ...base, authorization: `Bearer ${good.get("admin")!.key}` },
            },
          ]
        : []),
    ];
  }

  const UNAUTHORIZED_MESSAGE = {
    missing: /missing bearer key/,
    unknown: /unknown API key/,
    revoked: /revoked/,
    expired: /expired/,
  };

  it("lets the declared scopes in and refuses everyone else in the error envelope", async () => {
    const failures: string[] = [];
    for (const [route, methods] of Object.entries(ROUTE_SCOPES)) {
      const studio = route.startsWith("/studio-api/");
      for (const method of METHODS) {
        const access = methods[method];
        if (access === undefined) continue;
        await Promise.all(
          callers(studio, method).map(async (caller) => {
            const body = method === "GET" || method === "DELETE" ? undefined : "{}";
            const res = await fetch(`${server.url}${urlOf(route)}`, {
              method,
              headers: { ...caller.headers, ...(body ? { "content-type": "application/json" } : {}) },
              body,
            });
            const text = await res.text();
            let error: { code?: string; message?: string; type?: string } | undefined;
            try {
              error = (JSON.parse(text) as { error?: typeof error }).error;
            } catch {
              // not JSON: the checks below report it
            }
            const where = `${method} ${route} as ${caller.label}: ${res.status} ${text.slice(0, 200)}`;
            const problem = judge(route, access, caller, res.status, error, studio);
            if (problem) failures.push(`${where}\n    -> ${problem}`);
          }),
        );
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
  });

  /** Why an answer is wrong for this caller, or undefined when it is right. */
  function judge(
    route: string,
    access: Access,
    caller: Caller,
    status: number,
    error: { code?: string; message?: string; type?: string } | undefined,
    studio: boolean,
  ): string | undefined {
    const openai = OPENAI_SHAPED.has(route);
    if (!error?.code || !(typeof error.message === "string")) {
      if (status >= 400) return "an error outside the envelope";
    }
    if (openai && status >= 400 && (error?.type === undefined || !("param" in (error ?? {}))))
      return "an error not in OpenAI's shape";
    if (access === "refused")
      return status === 405 && error?.code === "method_not_allowed" ? undefined : "expected 405 method_not_allowed";
    if (status >= 500) return "a server error";
    if (access === "public") return status === 401 || status === 403 ? "a public route refused the caller" : undefined;
    if (caller.why) {
      if (status !== 401 || error?.code !== "unauthorized") return "expected 401 unauthorized";
      if (openai && error.type !== "authentication_error") return "expected type authentication_error";
      if (!studio && !UNAUTHORIZED_MESSAGE[caller.why].test(error.message ?? ""))
        return `the 401 does not say the key is ${caller.why}`;
      return undefined;
    }
    const allowed = caller.scope === "admin" || access.includes(caller.scope!);
    if (allowed) return status === 401 || status === 403 || status === 405 ? "a declared scope was refused" : undefined;
    if (status !== 403 || error?.code !== "forbidden") return "expected 403 forbidden";
    if (openai && error.type !== "permission_error") return "expected type permission_error";
    const named = scopesNamed(error.message ?? "");
    const want = [...access].sort();
    if (JSON.stringify(named) !== JSON.stringify(want)) return `the 403 should name scope ${want.join(" or ")}`;
    return undefined;
  }
});
