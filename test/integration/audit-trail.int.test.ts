/**
 * Issue 16, the audit log against the real server: every write path leaves exactly one entry
 * naming who (key id and name), what (action, target, a summary), and from where (api, cli,
 * config); GET /v1/audit filters by target, actor, action and since, and pages back; nothing
 * in the product updates or deletes an audit row.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/db/client";
import { SESSION_COOKIE, issueSessionCookie } from "@/lib/api/auth";
import { BOOTSTRAP_KEY_ID } from "@/lib/services/keys/bootstrap-key";
import { startLoopbackBackend as startBackend, type LoopbackBackend as Backend } from "../support/loopback-backend";
import {
  startLoopbackEverythingMcp as startEverything,
  type LoopbackEverythingMcp as EverythingServer,
} from "../support/loopback-everything-mcp";
import { runCli, startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";
import { openServerDb, testDialect } from "../support/test-database";

type Entry = {
  id: number;
  at: string;
  actor: { key_id: string; name: string };
  source: string;
  action: string;
  target: string;
  summary: any;
};

const BOOTSTRAP = { key_id: "key_bootstrap", name: expect.stringMatching(/bootstrap/) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the audit trail of every write path", () => {
  let server: TestServer;
  let backend: Backend;
  let mcp: EverythingServer;
  let scripts: string;

  const audit = async (query: string) => {
    const res = await server.api("GET", `/v1/audit?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { entries: Entry[]; next_before: number | null };
  };
  /** The one entry of this action on this target (fails if there are none or several). */
  const only = async (target: string, action: string) => {
    const entries = (await audit(`target=${encodeURIComponent(target)}`)).entries.filter((e) => e.action === action);
    expect(entries, `${action} on ${target}`).toHaveLength(1);
    return entries[0]!;
  };
  const count = async (target: string) => (await audit(`target=${encodeURIComponent(target)}`)).entries.length;
  const tool = (name: string, description = "a tool") => ({
    name,
    description,
    request: { method: "GET", url: "https://api.example.com/x" },
  });

  beforeAll(async () => {
    backend = await startBackend();
    backend.route("POST", "/charge", () => ({ body: { charged: true } }));
    mcp = await startEverything();
    scripts = tempDir("insika-audit-scripts-");
    server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port},127.0.0.1:${mcp.port}`,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
    await mcp?.stop();
  });

  it("PUT and DELETE of a tool: one entry each, with the acting key (not only the bootstrap one)", async () => {
    const writer = await server.api("POST", "/v1/keys", { name: "tool writer", scopes: ["tools:write"] });
    expect(writer.status).toBe(201);
    const as = { authorization: `Bearer ${writer.body.key}` };
    expect((await server.api("PUT", "/v1/tools/audited", tool("audited"), as)).status).toBe(201);
    expect(await only("tool:audited", "tool.put")).toMatchObject({
      actor: { key_id: writer.body.id, name: "tool writer" },
      source: "api",
      summary: { change: "created" },
    });
    // An unchanged PUT writes nothing, so it records nothing.
    await server.api("PUT", "/v1/tools/audited", tool("audited"), as);
    expect(await count("tool:audited")).toBe(1);
    expect((await server.api("DELETE", "/v1/tools/audited", undefined, as)).status).toBeLessThan(300);
    expect(await only("tool:audited", "tool.delete")).toMatchObject({
      actor: { key_id: writer.body.id },
      source: "api",
    });
    expect(await count("tool:audited")).toBe(2);
    // The version history names who made each version.
    const versions = (await server.api("GET", "/v1/tools/audited/versions")).body.versions as {
      by: { key_id: string; name: string } | null;
    }[];
    expect(versions.every((v) => v.by?.key_id === writer.body.id && v.by?.name === "tool writer")).toBe(true);
  });

  it("a refused write records nothing", async () => {
    const reader = await server.api("POST", "/v1/keys", { name: "reader", scopes: ["traces:read"] });
    const res = await server.api("PUT", "/v1/tools/refused", tool("refused"), {
      authorization: `Bearer ${reader.body.key}`,
    });
    expect(res.status).toBe(403);
    expect(await count("tool:refused")).toBe(0);
    expect((await server.api("PUT", "/v1/tools/bad", { name: "bad" })).status).toBe(422);
    expect(await count("tool:bad")).toBe(0);
  });

  it("a manifest: one entry for the whole manifest", async () => {
    const before = (await audit("action=manifest.apply")).entries.length;
    const res = await server.api("POST", "/v1/tools/manifest", {
      tools: [tool("from_manifest_a"), tool("from_manifest_b")],
    });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const entries = (await audit("action=manifest.apply")).entries;
    expect(entries).toHaveLength(before + 1);
    expect(entries[0]).toMatchObject({
      actor: BOOTSTRAP,
      source: "api",
      summary: { created: ["from_manifest_a", "from_manifest_b"] },
    });
    // Its tools get no entry of their own (one write, one entry).
    expect(await count("tool:from_manifest_a")).toBe(0);
  });

  it("an MCP import (loopback server): one entry, with no secret in it", async () => {
    const res = await server.api("POST", "/v1/mcp/import", { name: "everything", url: mcp.url });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const entry = await only("mcp:everything", "mcp.import");
    expect(entry).toMatchObject({ actor: BOOTSTRAP, source: "api" });
    expect(entry.summary.created.length).toBeGreaterThan(0);
  });

  it("PUT and DELETE of an agent, PUT and DELETE of a skill", async () => {
    expect(
      (await server.api("PUT", "/v1/skills/refunds", { description: "how refunds go", body: "Refund within 30 days." }))
        .status,
    ).toBe(201);
    expect(await only("skill:refunds", "skill.put")).toMatchObject({
      actor: BOOTSTRAP,
      source: "api",
      summary: { change: "created" },
    });
    expect((await server.api("PUT", "/v1/agents/audited", { model: { provider: "demo", model: "demo" } })).status).toBe(
      201,
    );
    expect(await only("agent:audited", "agent.put")).toMatchObject({
      actor: BOOTSTRAP,
      source: "api",
      summary: { change: "created" },
    });
    expect(
      (await server.api("PUT", "/v1/agents/audited", { name: "Renamed", model: { provider: "demo", model: "demo" } }))
        .status,
    ).toBe(200);
    expect(await count("agent:audited")).toBe(2);
    expect((await server.api("DELETE", "/v1/agents/audited")).status).toBe(200);
    expect(await only("agent:audited", "agent.delete")).toMatchObject({ actor: BOOTSTRAP, source: "api" });
    expect((await server.api("DELETE", "/v1/skills/refunds")).status).toBeLessThan(300);
    expect(await only("skill:refunds", "skill.delete")).toMatchObject({ actor: BOOTSTRAP, source: "api" });
  });

  it("key create and revoke, through the API and the CLI (source cli)", async () => {
    const created = await server.api("POST", "/v1/keys", { name: "short lived", scopes: ["turns:run"] });
    const entry = await only(`key:${created.body.id}`, "key.create");
    expect(entry).toMatchObject({
      actor: BOOTSTRAP,
      source: "api",
      summary: { name: "short lived", scopes: ["turns:run"] },
    });
    expect(JSON.stringify(entry)).not.toContain(created.body.key);
    expect((await server.api("DELETE", `/v1/keys/${created.body.id}`)).status).toBe(200);
    expect(await only(`key:${created.body.id}`, "key.revoke")).toMatchObject({ actor: BOOTSTRAP, source: "api" });

    const cli = runCli(["keys", "create", "from the cli", "--scope", "traces:read"], server.env);
    expect(cli.code, cli.stderr).toBe(0);
    const id = /Created key (key_\S+)/.exec(cli.stdout)![1]!;
    expect(await only(`key:${id}`, "key.create")).toMatchObject({
      actor: { key_id: "operator", name: "cli" },
      source: "cli",
    });
  });

  it("an approval decision", async () => {
    expect(
      (
        await server.api("PUT", "/v1/tools/charge", {
          name: "charge",
          description: "charge",
          request: { method: "POST", url: `${backend.url}/charge` },
        })
      ).status,
    ).toBe(201);
    fs.writeFileSync(
      path.join(scripts, "payer.json"),
      JSON.stringify([[{ type: "tool-call", name: "charge", args: {} }], [{ type: "text", text: "done" }]]),
    );
    await server.api("PUT", "/v1/agents/payer", {
      model: { provider: "scripted", model: "payer" },
      approvals: ["charge"],
    });
    const session = (await server.api("POST", "/v1/sessions", { agent_id: "payer" })).body.id as string;
    expect((await server.api("POST", `/v1/sessions/${session}/turns`, { message: "pay" })).body.status).toBe("waiting");
    const approval = (
      (await server.api("GET", "/v1/approvals?status=pending")).body.approvals as { id: string; session_id: string }[]
    ).find((a) => a.session_id === session)!;
    expect(
      (await server.api("POST", `/v1/approvals/${approval.id}`, { decision: "rejected", note: "not today" })).status,
    ).toBe(200);
    expect(await only(`approval:${approval.id}`, "approval.decide")).toMatchObject({
      actor: BOOTSTRAP,
      source: "api",
      summary: { decision: "rejected", tool: "charge", note: "not today" },
    });
  });

  it("config apply through `insika apply`: one entry, source cli", async () => {
    const dir = fs.mkdtempSync(path.join(server.dataDir, "cfg-"));
    const file = path.join(dir, "insika.config.ts");
    fs.writeFileSync(
      file,
      `export default [{ id: "from_config", model: { provider: "demo", model: "demo" }, dataTools: [{ name: "cfg_tool", description: "from the config", request: { method: "GET", url: "https://api.example.com/x" } }] }];`,
    );
    const applied = runCli(["apply", file], server.env);
    expect(applied.code, applied.stderr).toBe(0);
    const entries = (await audit("action=config.apply")).entries.filter((e) => e.source === "cli");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { key_id: "operator", name: "cli" },
      target: expect.stringMatching(/^config:/),
      summary: { agents: ["from_config"] },
    });
  });

  it("GET /v1/audit filters by target, actor, action and since, newest first, and pages back", async () => {
    const all = (await audit("limit=500")).entries;
    expect(all.length).toBeGreaterThan(10);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    const byOperator = (await audit("actor=operator")).entries;
    expect(byOperator.length).toBeGreaterThan(0);
    expect(byOperator.every((e) => e.actor.key_id === "operator")).toBe(true);
    expect((await audit("action=key.revoke")).entries.every((e) => e.action === "key.revoke")).toBe(true);
    expect((await audit("target=tool:audited")).entries.map((e) => e.action)).toEqual(["tool.delete", "tool.put"]);

    await sleep(5);
    const cut = new Date().toISOString();
    await sleep(5);
    await server.api("PUT", "/v1/skills/late", { description: "late", body: "late" });
    const since = (await audit(`since=${encodeURIComponent(cut)}`)).entries;
    expect(since.map((e) => e.target)).toEqual(["skill:late"]);

    const first = await audit("limit=3");
    expect(first.entries).toHaveLength(3);
    const next = await audit(`limit=3&before=${first.next_before}`);
    expect(next.entries[0]!.id).toBeLessThan(first.entries[2]!.id);

    for (const bad of [
      "since=yesterday",
      "limit=0",
      "limit=9999",
      "colour=blue",
      "before=-1",
      "before=0x10",
      "limit=1e1",
      "limit=3&limit=4",
    ]) {
      const res = await server.api("GET", `/v1/audit?${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
    }
    // Only admin reads the audit log.
    const reader = await server.api("POST", "/v1/keys", { name: "audit reader?", scopes: ["traces:read"] });
    expect(
      (await server.api("GET", "/v1/audit", undefined, { authorization: `Bearer ${reader.body.key}` })).status,
    ).toBe(403);
  });

  it("a filter holding U+0000: the Studio's Audit page shows no entries, and GET /v1/audit is 400 where the database cannot compare it", async () => {
    const db = openServerDb(server);
    const cookie = `${SESSION_COOKIE}=${await issueSessionCookie(db, server.dataDir, BOOTSTRAP_KEY_ID)}`;
    await closeDb(db);
    for (const filter of ["target", "actor"]) {
      const page = await fetch(`${server.url}/audit?${filter}=%00`, { headers: { cookie }, redirect: "manual" });
      expect(page.status, filter).toBe(200);
      const html = await page.text();
      expect(html, filter).toContain("Nothing matches these filters yet.");
      expect(html, filter).not.toContain("internal error");

      // The API keeps the main API's rule: 400 naming the problem on PostgreSQL, a plain search on SQLite.
      const res = await server.api("GET", `/v1/audit?${filter}=%00`);
      if (testDialect() === "postgres") {
        expect(res.status, filter).toBe(400);
        expect(res.body.error).toMatchObject({ code: "bad_request", message: expect.stringContaining("U+0000") });
      } else {
        expect(res.status, filter).toBe(200);
        expect(res.body.entries).toEqual([]);
      }
    }
  });
});
