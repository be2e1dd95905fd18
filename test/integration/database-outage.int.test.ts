/**
 * The database going away, against the real server and a PostgreSQL cluster of this test's
 * own (so it can be stopped): at start, an unreachable database is a clear error and a
 * non-zero exit within seconds, not a hang; mid-turn, losing it fails the run (fault
 * `system`) without losing the turn, a streaming client's stream ends instead of staying
 * open, /v1/ready says 503 meanwhile, and once the database is back the turn resumes under
 * the usual rule (the call in flight is reported unknown, never sent again) and completes. Needs PostgreSQL's binaries, like the suite's PostgreSQL run.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { freePort, runCli, startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";
import { createTestDatabase, testPostgresUrl } from "../support/test-database";

const UNKNOWN = JSON.stringify({
  error: "outcome unknown: the call was in flight when the server stopped; it was not retried",
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cluster = (...args: string[]) => {
  const run = spawnSync("bash", ["scripts/test-postgres.sh", ...args], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`test-postgres.sh ${args.join(" ")} failed: ${run.stderr}`);
  return run.stdout;
};

describe("an unreachable database at start", () => {
  it("is a clear error and a non-zero exit within seconds, the password never printed", async () => {
    const port = await freePort(); // nothing listens there
    const started = Date.now();
    const prepared = runCli(["prepare"], {
      INSIKA_DATA_DIR: tempDir(),
      INSIKA_DATABASE_URL: `postgres://insika:s3cret-pw@127.0.0.1:${port}/insika`,
      INSIKA_API_TOKEN: "test_unreachable_token_0123456789",
    });
    expect(prepared.code).not.toBe(0);
    expect(prepared.stderr).toContain(`cannot connect to PostgreSQL at postgres://insika:***@127.0.0.1:${port}/insika`);
    expect(prepared.stderr + prepared.stdout).not.toContain("s3cret-pw");
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("a malformed INSIKA_DATABASE_URL is refused by name", () => {
    const prepared = runCli(["prepare"], { INSIKA_DATA_DIR: tempDir(), INSIKA_DATABASE_URL: "mysql://x@y/z" });
    expect(prepared.code).not.toBe(0);
    expect(prepared.stderr).toMatch(/INSIKA_DATABASE_URL must be a postgres:\/\/ URL/);
  });
});

describe.skipIf(!testPostgresUrl())("losing PostgreSQL in the middle of a turn", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let dir: string;
  let scripts: string;

  beforeAll(async () => {
    const out = cluster("start");
    dir = /^INSIKA_TEST_PG_DIR=(.*)$/m.exec(out)![1]!;
    const adminUrl = /^INSIKA_TEST_DATABASE_URL=(.*)$/m.exec(out)![1]!;
    backend = await startLoopbackBackend();
    scripts = tempDir("insika-outage-scripts-");
    server = await startServer({
      env: {
        INSIKA_DATABASE_URL: await createTestDatabase(adminUrl),
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
        INSIKA_TURN_LEASE: "2",
      },
    });
    // The call is answered after 2.5 s: the database goes down meanwhile.
    backend.route("POST", "/charge", () => ({ body: { charged: true }, delayMs: 2_500 }));
    const put = await server.api("PUT", "/v1/tools/charge", {
      name: "charge",
      description: "charge",
      parameters: "key | string | required | idempotency key",
      request: { method: "POST", url: `${backend.url}/charge`, body: { key: "{{key}}" } },
      side_effect: true,
    });
    expect(put.status).toBe(201);
    fs.writeFileSync(
      path.join(scripts, "outage.json"),
      JSON.stringify([
        [
          { type: "text", text: "Charging. " },
          { type: "tool-call", name: "charge", args: { key: "outage-1" } },
        ],
        [{ type: "text", text: "Done." }],
      ]),
    );
    expect(
      (await server.api("PUT", "/v1/agents/outage", { model: { provider: "scripted", model: "outage" } })).status,
    ).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
    if (dir) {
      spawnSync("bash", ["scripts/test-postgres.sh", "up", dir]);
      cluster("stop", dir);
    }
  });

  it("fails the run with a system fault, answers 503 on /v1/ready, and resumes the turn once the database is back", async () => {
    const sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "outage" })).body.id as string;
    const answer = server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" });
    const deadline = Date.now() + 20_000;
    while (backend.requests.filter((r) => r.method === "POST").length === 0 && Date.now() < deadline) await sleep(50);
    expect(backend.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    cluster("down", dir); // the call is in flight; its journal row is already committed

    const failed = await answer;
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: "failed", code: "recording_failed", fault: "system" });
    expect(failed.body.error).toMatch(/the database is unavailable .*resumes from its last checkpoint/);
    const notReady = await server.api("GET", "/v1/ready");
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({ ready: false, dialect: "postgres" });
    expect(notReady.body.reason).toMatch(/^database unreachable/);

    cluster("up", dir);
    const back = Date.now() + 30_000;
    let ready = await server.api("GET", "/v1/ready");
    while (ready.status !== 200 && Date.now() < back) {
      await sleep(250);
      ready = await server.api("GET", "/v1/ready");
    }
    expect(ready.status).toBe(200);
    // The lease the failed run left runs out; the resume pass takes the turn up again.
    let turn: { status: string; content: string } | undefined;
    while (Date.now() < back) {
      turn = (await server.api("GET", `/v1/sessions/${sessionId}`)).body?.turns?.[0];
      if (turn && turn.status !== "running") break;
      await sleep(250);
    }
    expect(turn).toMatchObject({ status: "completed", content: "Done." });
    const { messages } = (await server.api("GET", `/v1/sessions/${sessionId}`)).body as {
      messages: { role: string; content: string; tool?: string }[];
    };
    expect(messages.find((m) => m.role === "tool" && m.tool === "charge")?.content).toBe(UNKNOWN);
    await sleep(3_000); // the held response lands; nothing sends the call again
    expect(backend.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("ends a streaming client's stream when the run's end cannot be recorded (SSE turn, chat completion)", async () => {
    const stream = async (pathname: string, body: unknown) => {
      const res = await fetch(`${server.url}${pathname}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${server.token}`,
          "content-type": "application/json",
          accept: "text/event-stream",
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return res.text(); // settles only when the server ends the stream
    };
    const sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "outage" })).body.id as string;
    const posts = backend.requests.filter((r) => r.method === "POST").length;
    const sse = stream(`/v1/sessions/${sessionId}/turns`, { message: "charge" });
    const chat = stream("/v1/chat/completions", {
      model: "outage",
      stream: true,
      messages: [{ role: "user", content: "charge" }],
    });
    const deadline = Date.now() + 20_000;
    while (backend.requests.filter((r) => r.method === "POST").length < posts + 2 && Date.now() < deadline)
      await sleep(50);
    cluster("down", dir); // both calls are in flight

    const ended = await Promise.race([
      Promise.all([sse, chat]),
      sleep(30_000).then(() => "still open after 30 s" as const),
    ]);
    expect(ended).not.toBe("still open after 30 s");
    const [sseText, chatText] = ended as [string, string];
    expect(sseText).toContain("event: tool_call");
    expect(sseText).not.toMatch(/event: turn_(completed|halted|waiting|failed)/);
    expect(chatText).toMatch(/"error":\{[^}]*the database is unavailable/);
    expect(chatText).not.toContain("[DONE]");

    // Back up: both turns resume and complete, as the first test's did.
    cluster("up", dir);
    const back = Date.now() + 30_000;
    let statuses: string[] = [];
    while (Date.now() < back) {
      const turns = await server.api("GET", `/v1/sessions/${sessionId}`).catch(() => undefined);
      statuses = (turns?.body?.turns ?? []).map((t: { status: string }) => t.status);
      if (statuses.length > 0 && !statuses.includes("running")) break;
      await sleep(250);
    }
    expect(statuses).toEqual(["completed"]);
  });
});
