/**
 * The keys API against the real server (issue 16): creation shows a value once and the list
 * never does; hostile bodies get a 422 naming the problem; revocation holds on the next
 * request in every process sharing the database; last_used_at, expiry, the bootstrap key
 * (INSIKA_API_TOKEN), and `insika keys create|list|revoke` and `insika token`.
 */
import { sql } from "drizzle-orm";
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDb, testDatabaseEnv } from "../support/test-database";
import { runCli, startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

/** A request with someone else's key (server.api uses the bootstrap key). */
async function as(server: TestServer, key: string, method: string, pathname: string, body?: unknown) {
  return server.api(method, pathname, body, { authorization: `Bearer ${key}` });
}

describe("the keys API", () => {
  let server: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    server = await startServer();
    // A second process on the same data directory: a revocation made here must hold there at once.
    other = await startServer({
      env: { INSIKA_DATA_DIR: server.dataDir, INSIKA_API_TOKEN: server.token },
      prepare: false,
    });
    expect(
      (await server.api("PUT", "/v1/agents/support", { model: { provider: "scripted", model: "x" } })).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await other?.stop();
    await server?.stop();
  });

  const create = async (body: Record<string, unknown>) => {
    const res = await server.api("POST", "/v1/keys", body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as {
      id: string;
      key: string;
      name: string;
      scopes: string[];
      agents: string[] | null;
      tenant: string | null;
      expires_at: string | null;
      turns_per_minute: number | null;
      created_at: string;
    };
  };

  it("creates a key and shows its value once; the list never shows a value or a hash", async () => {
    const made = await create({
      name: "chat",
      scopes: ["turns:run"],
      agents: ["support"],
      tenant: "acme",
      turns_per_minute: 30,
    });
    expect(made).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^insk_[A-Za-z0-9_-]{40,}$/),
      name: "chat",
      scopes: ["turns:run"],
      agents: ["support"],
      tenant: "acme",
      expires_at: null,
      turns_per_minute: 30,
      created_at: expect.any(String),
    });
    const list = await server.api("GET", "/v1/keys");
    expect(list.status).toBe(200);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(made.key);
    expect(text).not.toContain(sha256(made.key));
    expect(text).not.toContain(sha256(server.token));
    const row = list.body.keys.find((k: { id: string }) => k.id === made.id);
    expect(row).toMatchObject({
      name: "chat",
      status: "active",
      scopes: ["turns:run"],
      agents: ["support"],
      tenant: "acme",
      last_used_at: null,
      revoked_at: null,
    });
    expect(Object.keys(row)).not.toEqual(expect.arrayContaining(["key"]));
    expect(Object.keys(row)).not.toContain("hash");
    expect(made.key.startsWith(row.prefix.replace("…", ""))).toBe(true);
    // The key works, within its scope.
    expect((await as(server, made.key, "GET", "/v1/sessions")).status).toBe(200);
    expect((await as(server, made.key, "GET", "/v1/tools")).status).toBe(403);
  });

  it("answers a hostile body with a 422 naming the problem, and writes nothing", async () => {
    const before = (await server.api("GET", "/v1/keys")).body.keys.length;
    const past = new Date(Date.now() - 60_000).toISOString();
    const cases: Array<[unknown, RegExp]> = [
      [{ name: "x", scopes: ["root"] }, /scopes/],
      [{ name: "x", scopes: [] }, /at least one scope/],
      [{ name: "x", scopes: "admin" }, /scopes/],
      [{ name: "x" }, /scopes/],
      [{ scopes: ["admin"] }, /name/],
      [{ name: "   ", scopes: ["admin"] }, /name/],
      [{ name: "x".repeat(101), scopes: ["admin"] }, /name/],
      [{ name: "x", scopes: ["admin"], expires_at: past }, /expires_at: must be in the future/],
      [{ name: "x", scopes: ["admin"], expires_at: "tomorrow" }, /expires_at/],
      [{ name: "x", scopes: ["turns:run"], agents: ["no_such_agent"] }, /agent 'no_such_agent' does not exist/],
      [{ name: "x", scopes: ["traces:read"], agents: ["support"] }, /only a turns:run key can be limited to agents/],
      [{ name: "x", scopes: ["turns:run", "tools:write"], agents: ["support"] }, /only a turns:run key/],
      [{ name: "x", scopes: ["turns:run"], turns_per_minute: 0 }, /turns_per_minute/],
      [{ name: "x", scopes: ["turns:run"], turns_per_minute: 1.5 }, /turns_per_minute/],
      [{ name: "x", scopes: ["admin"], key: "insk_chosen_by_the_caller_000000000000" }, /key/],
      [{ name: "x", scopes: ["admin"], tenant: "" }, /tenant/],
      [[], /object/i],
    ];
    for (const [body, message] of cases) {
      const res = await server.api("POST", "/v1/keys", body);
      expect({ body, status: res.status, code: res.body?.error?.code }).toEqual({
        body,
        status: 422,
        code: "validation_failed",
      });
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    const notJson = await server.api("POST", "/v1/keys", "{not json");
    expect(notJson.status).toBe(400);
    expect((await server.api("GET", "/v1/keys")).body.keys.length).toBe(before);
  });

  it("lets only an admin key create, list or revoke keys (a tools:write key cannot mint an admin key)", async () => {
    const writer = await create({
      name: "writer",
      scopes: ["tools:write", "agents:write", "approvals:decide", "traces:read", "turns:run"],
    });
    for (const [method, pathname, body] of [
      ["POST", "/v1/keys", { name: "escalate", scopes: ["admin"] }],
      ["GET", "/v1/keys", undefined],
      ["DELETE", `/v1/keys/${writer.id}`, undefined],
      ["GET", "/v1/audit", undefined],
    ] as const) {
      const res = await as(server, writer.key, method, pathname, body);
      expect({ method, pathname, status: res.status, code: res.body.error?.code }).toEqual({
        method,
        pathname,
        status: 403,
        code: "forbidden",
      });
      expect(res.body.error.message).toMatch(/needs scope admin/);
    }
    const names = (await server.api("GET", "/v1/keys")).body.keys.map((k: { name: string }) => k.name);
    expect(names).not.toContain("escalate");
  });

  it("revokes a key: 401 on its very next request in this process and the other, 409 twice, 404 unknown, never itself", async () => {
    const made = await create({ name: "to revoke", scopes: ["traces:read"] });
    expect((await as(server, made.key, "GET", "/v1/tools")).status).toBe(200);
    expect((await as(other, made.key, "GET", "/v1/tools")).status).toBe(200);

    const revoked = await server.api("DELETE", `/v1/keys/${made.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: made.id, status: "revoked", revoked_at: expect.any(String) });
    for (const s of [other, server]) {
      const res = await as(s, made.key, "GET", "/v1/tools");
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: "unauthorized", message: expect.stringMatching(/revoked/) });
    }

    const again = await server.api("DELETE", `/v1/keys/${made.id}`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already revoked/);
    expect((await server.api("DELETE", "/v1/keys/key_no_such_key")).status).toBe(404);

    // Revoked through the second process, refused by the first.
    const second = await create({ name: "revoked elsewhere", scopes: ["traces:read"] });
    expect((await other.api("DELETE", `/v1/keys/${second.id}`)).status).toBe(200);
    expect((await as(server, second.key, "GET", "/v1/tools")).status).toBe(401);

    const admin = await create({ name: "second admin", scopes: ["admin"] });
    const self = await as(server, admin.key, "DELETE", `/v1/keys/${admin.id}`);
    expect(self.status).toBe(409);
    expect(self.body.error.message).toMatch(/cannot revoke itself/);
    expect((await server.api("DELETE", "/v1/keys/key_bootstrap")).status).toBe(409);
    expect((await as(server, admin.key, "GET", "/v1/keys")).status).toBe(200);

    const listed = (await server.api("GET", "/v1/keys")).body.keys.find((k: { id: string }) => k.id === made.id);
    expect(listed).toMatchObject({ status: "revoked" });
    const audit = await server.api("GET", `/v1/audit?target=${encodeURIComponent(`key:${made.id}`)}`);
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(["key.revoke", "key.create"]);
    expect(audit.body.entries[0]).toMatchObject({ actor: { key_id: "key_bootstrap" }, source: "api" });
  });

  it("records last_used_at on first use, then at most once a minute", async () => {
    const made = await create({ name: "used", scopes: ["traces:read"] });
    const lastUsed = async () =>
      (await server.api("GET", "/v1/keys")).body.keys.find((k: { id: string }) => k.id === made.id).last_used_at as
        string | null;
    expect(await lastUsed()).toBeNull();
    await as(server, made.key, "GET", "/v1/tools");
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await as(server, made.key, "GET", "/v1/tools");
    expect(await lastUsed()).toBe(first);
    // Two minutes later (moved back in the database rather than waited for), the next use moves it.
    const db = openServerDb(server);
    try {
      await db.execute(sql`UPDATE api_keys SET last_used_at = last_used_at - 120000 WHERE id = ${made.id}`);
    } finally {
      await db.close();
    }
    const moved = await lastUsed();
    await as(other, made.key, "GET", "/v1/tools");
    const after = await lastUsed();
    expect(Date.parse(after!)).toBeGreaterThan(Date.parse(moved!));
  });

  it("stops an expiring key at its expiry, with a 401 that says so", async () => {
    const made = await create({
      name: "short",
      scopes: ["traces:read"],
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await as(server, made.key, "GET", "/v1/tools")).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(made.expires_at!) - Date.now() + 200)));
    const res = await as(server, made.key, "GET", "/v1/tools");
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
    expect((await server.api("GET", "/v1/keys")).body.keys.find((k: { id: string }) => k.id === made.id).status).toBe(
      "expired",
    );
  });

  it("makes INSIKA_API_TOKEN the bootstrap admin key, and a new value replaces the old one", async () => {
    const keys = (await server.api("GET", "/v1/keys")).body.keys;
    expect(keys.find((k: { id: string }) => k.id === "key_bootstrap")).toMatchObject({
      scopes: ["admin"],
      status: "active",
      agents: null,
      tenant: null,
    });
    const token = runCli(["token"], server.env);
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout).toMatch(/INSIKA_API_TOKEN/);
    expect(token.stdout).not.toContain(server.token);
    // A restart with another INSIKA_API_TOKEN (prepare re-arms the bootstrap key): the old value stops working.
    const renewed = `test_${crypto.randomBytes(16).toString("hex")}`;
    const prepared = runCli(["prepare"], { ...server.env, INSIKA_API_TOKEN: renewed });
    expect(prepared.code, prepared.stderr).toBe(0);
    expect((await server.api("GET", "/v1/tools")).status).toBe(401);
    expect((await as(server, renewed, "GET", "/v1/tools")).status).toBe(200);
    const back = runCli(["prepare"], server.env);
    expect(back.code, back.stderr).toBe(0);
    expect((await server.api("GET", "/v1/tools")).status).toBe(200);
  });

  it("creates, lists and revokes keys with `insika keys`, audited as the CLI", async () => {
    const made = runCli(
      ["keys", "create", "cli chat", "--scope", "turns:run", "--agent", "support", "--turns-per-minute", "10"],
      server.env,
    );
    expect(made.code, made.stderr).toBe(0);
    const value = /(insk_[A-Za-z0-9_-]+)/.exec(made.stdout)?.[1];
    const id = /Created key (key_\S+)/.exec(made.stdout)?.[1];
    expect(value && id, made.stdout).toBeTruthy();
    expect((await as(server, value!, "GET", "/v1/sessions")).status).toBe(200);
    expect((await as(server, value!, "GET", "/v1/tools")).status).toBe(403);

    const list = runCli(["keys", "list"], server.env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(id!);
    expect(list.stdout).toMatch(/cli chat\s+\[turns:run\]\s+agents support; 10\/min/);
    expect(list.stdout).not.toContain(value!);

    const bad = runCli(["keys", "create", "nope", "--scope", "root"], server.env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/scopes/);
    const noScope = runCli(["keys", "create", "nope"], server.env);
    expect(noScope.code).not.toBe(0);
    expect(noScope.stderr).toMatch(/scopes/);
    const unknownFlag = runCli(["keys", "create", "nope", "--scope", "admin", "--shell", "x"], server.env);
    expect(unknownFlag.code).not.toBe(0);
    expect(unknownFlag.stderr).toMatch(/unknown flag '--shell'/);

    const revoke = runCli(["keys", "revoke", id!], server.env);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect((await as(server, value!, "GET", "/v1/sessions")).status).toBe(401);
    const twice = runCli(["keys", "revoke", id!], server.env);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toMatch(/already revoked/);

    const audit = await server.api("GET", `/v1/audit?target=${encodeURIComponent(`key:${id}`)}`);
    expect(audit.body.entries).toEqual([
      expect.objectContaining({ action: "key.revoke", source: "cli" }),
      expect.objectContaining({ action: "key.create", source: "cli" }),
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(value!);
  });
});

describe("insika token without INSIKA_API_TOKEN", () => {
  it("generates the bootstrap key once, then prints the same one from the data directory", async () => {
    const dataDir = tempDir();
    const env = { INSIKA_DATA_DIR: dataDir, INSIKA_LOG_LEVEL: "warn", ...(await testDatabaseEnv()) };
    const prepared = runCli(["prepare"], env);
    expect(prepared.code, prepared.stderr).toBe(0);
    const generated = /(insk_[A-Za-z0-9_-]+)/.exec(prepared.stdout)?.[1];
    expect(generated, prepared.stdout).toBeTruthy();
    const printed = runCli(["token"], env);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout.trim()).toBe(generated);
    const server = await startServer({ env: { ...env, INSIKA_API_TOKEN: generated! }, prepare: false });
    try {
      expect((await server.api("GET", "/v1/keys")).status).toBe(200);
      const rotated = runCli(["token", "--rotate"], env);
      expect(rotated.code, rotated.stderr).toBe(0);
      const fresh = rotated.stdout.trim();
      expect(fresh).toMatch(/^insk_/);
      expect(fresh).not.toBe(generated);
      expect((await server.api("GET", "/v1/keys")).status).toBe(401);
      expect((await as(server, fresh, "GET", "/v1/keys")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
