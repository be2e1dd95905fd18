/**
 * A fleet: three instances (A, B, C) of the real server on one PostgreSQL database, sharing a
 * key and a scripted model directory, behind no load balancer (the test is the client and
 * picks an instance per request). What must hold: any instance serves any request; a turn
 * started on A is streamed from B (through the database) and approved on C, and resumes
 * exactly once; a tool written on A is offered by B within a second; and when A is SIGKILLed
 * in the middle of a batch of side-effecting calls, B and C take its turns over once their
 * leases expire: every turn ends, no side-effecting request reaches the backend twice, and
 * every turn's events are numbered without a gap; an instance stopped by SIGTERM gives the
 * lease of a turn it still runs up, so another takes the turn over at once, not a lease later.
 * Runs in the PostgreSQL pass of the suite.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHARGE_ENDPOINTS, chargeTool, chargesSent, routeCharges } from "../support/charge-backend";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";
import { createTestDatabase, testPostgresUrl } from "../support/test-database";

const UNKNOWN = JSON.stringify({
  error: "outcome unknown: the call was in flight when the server stopped; it was not retried",
});
const LEASE_S = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SseEvent {
  id: string | undefined;
  event: string;
  data: Record<string, unknown>;
}

/** Reads an SSE response to its end, event by event. */
async function readSse(res: Response): Promise<SseEvent[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "" && !block.startsWith(":"))
    .map((block) => ({
      id: /^id: (.*)$/m.exec(block)?.[1],
      event: /^event: (.*)$/m.exec(block)?.[1] ?? "",
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null") as Record<string, unknown>,
    }));
}

describe.skipIf(!testPostgresUrl())("a fleet of three instances on one PostgreSQL", () => {
  let fleet: TestServer[];
  let backend: LoopbackBackend;
  let scripts: string;
  /** What every instance of the fleet is started with. */
  let fleetEnv: Record<string, string>;
  const held = new Set<string>();
  const sent = (key: string) => chargesSent(backend, key);

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    scripts = tempDir("insika-fleet-scripts-");
    fleetEnv = {
      INSIKA_DATABASE_URL: await createTestDatabase(),
      INSIKA_API_TOKEN: `fleet_${crypto.randomBytes(16).toString("hex")}`,
      INSIKA_SCRIPTED_DIR: scripts,
      INSIKA_EGRESS_ALLOW_HTTP: "1",
      INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
      INSIKA_TURN_LEASE: String(LEASE_S),
    };
    fleet = await Promise.all([0, 1, 2].map(() => startServer({ env: fleetEnv })));
    routeCharges(backend, held, 30_000);
    for (const [i, x] of CHARGE_ENDPOINTS.entries()) {
      // Each tool written through another instance.
      const put = await fleet[i]!.api("PUT", `/v1/tools/charge_${x}`, chargeTool(backend, x, { side_effect: true }));
      expect(put.status).toBe(201);
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.all((fleet ?? []).map((s) => s.stop()));
    await backend?.close();
  });

  const A = () => fleet[0]!;
  const B = () => fleet[1]!;
  const C = () => fleet[2]!;

  /** An agent (created through `on`) whose one turn charges a, b and c in one parallel batch, then answers. */
  async function chargingSession(on: TestServer, key: string, extra: Record<string, unknown> = {}) {
    const steps = [
      [
        { type: "text", text: "Charging. " },
        ...["a", "b", "c"].map((x) => ({ type: "tool-call", name: `charge_${x}`, args: { key: `${key}-${x}` } })),
      ],
      [{ type: "text", text: "Done." }],
    ];
    fs.writeFileSync(path.join(scripts, `${key}.json`), JSON.stringify(steps));
    const put = await on.api("PUT", `/v1/agents/${key}`, {
      model: { provider: "scripted", model: key },
      limits: { tool_concurrency: 3 },
      ...extra,
    });
    expect(put.status).toBe(201);
    return (await on.api("POST", "/v1/sessions", { agent_id: key })).body.id as string;
  }

  async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const value = await probe();
      if (value !== undefined) return value;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it("every instance is ready and reports the same database", async () => {
    for (const s of fleet) {
      const ready = await s.api("GET", "/v1/ready", undefined, { authorization: "" });
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ ready: true, dialect: "postgres" });
    }
    const doctor = await B().api("GET", "/v1/doctor");
    const db = (doctor.body.checks as { name: string; message: string }[]).find((c) => c.name === "db");
    expect(db?.message, JSON.stringify(doctor.body)).toMatch(/^postgres: .*PostgreSQL 1\d/);
  });

  it("a tool written on A is offered by B within a second", async () => {
    await A().api("PUT", "/v1/agents/hot", { model: { provider: "demo", model: "demo" }, tools_allow: [] });
    const written = Date.now();
    const put = await A().api("PUT", "/v1/agents/hot", {
      model: { provider: "demo", model: "demo" },
      tools_allow: ["charge_a"],
    });
    expect(put.status).toBe(200);
    const seen = await waitFor("B to offer charge_a", async () => {
      const tools = await B().api("GET", "/v1/agents/hot/tools");
      return (tools.body.offered as string[]).includes("charge_a") ? Date.now() : undefined;
    });
    expect(seen - written).toBeLessThan(1_000);
    // And a brand-new tool written on C shows in A's catalog as soon as C's write returns.
    const made = await C().api("PUT", "/v1/tools/fleet_probe", {
      name: "fleet_probe",
      description: "probe",
      request: { method: "GET", url: `${backend.url}/probe` },
    });
    expect(made.status).toBe(201);
    const catalog = await A().api("GET", "/v1/tools");
    expect((catalog.body.tools as { name: string }[]).map((t) => t.name)).toContain("fleet_probe");
  });

  it("a turn started on A is streamed from B, approved on C, and resumes exactly once", async () => {
    const sessionId = await chargingSession(A(), "appr", { approvals: ["charge_b"], limits: { tool_concurrency: 1 } });
    const started = await A().api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" });
    expect(started.body).toMatchObject({ status: "waiting" });
    const turnId = started.body.turn_id as string;
    // B replays what A recorded, up to the wait.
    const replay = await readSse(
      await fetch(`${B().url}/v1/turns/${turnId}/events`, {
        headers: { authorization: `Bearer ${B().token}`, accept: "text/event-stream" },
      }),
    );
    expect(replay.at(-1)?.event).toBe("turn_waiting");
    expect(replay.map((e) => Number(e.id))).toEqual(replay.map((_, i) => i + 1));
    // B follows from there while C decides.
    const follow = fetch(`${B().url}/v1/turns/${turnId}/events`, {
      headers: {
        authorization: `Bearer ${B().token}`,
        accept: "text/event-stream",
        "last-event-id": replay.at(-1)!.id!,
      },
    });
    const approval = await waitFor("the pending approval", async () => {
      const list = await C().api("GET", "/v1/approvals?status=pending");
      return (list.body.approvals as { id: string; turn_id: string }[]).find((a) => a.turn_id === turnId);
    });
    expect((await C().api("POST", `/v1/approvals/${approval.id}`, { decision: "approved" })).status).toBe(200);
    const rest = await readSse(await follow);
    expect(rest[0]?.id).toBe(String(Number(replay.at(-1)!.id) + 1));
    expect(rest.at(-1)?.event).toBe("turn_completed");
    // The resumed batch replays a's recorded result (not sent again), then runs b and c.
    const results = rest.filter((e) => e.event === "tool_result");
    expect(results.map((e) => [e.data.tool, e.data.replayed ?? false])).toEqual([
      ["charge_a", true],
      ["charge_b", false],
      ["charge_c", false],
    ]);
    for (const x of ["a", "b", "c"]) expect(sent(`appr-${x}`), x).toBe(1);
    const transcript = await A().api("GET", `/v1/sessions/${sessionId}`);
    expect(transcript.body.turns[0]).toMatchObject({ status: "completed", content: "Done." });
  });

  it("SIGKILL of A in the middle of side-effecting batches: B and C take over, nothing is sent twice", async () => {
    const keys = ["k0", "k1", "k2", "k3"];
    const heldAt = ["a", "b", "c", "a"];
    keys.forEach((key, i) => held.add(`${key}-${heldAt[i]}`));
    const sessions = await Promise.all(keys.map((key) => chargingSession(A(), key)));
    const answers = sessions.map((id) =>
      A()
        .api("POST", `/v1/sessions/${id}/turns`, { message: "charge" })
        .catch(() => undefined),
    );
    // Every batch has its three calls out; one of each is held at the backend.
    await waitFor("every batch in flight", async () =>
      keys.every((key) => ["a", "b", "c"].every((x) => sent(`${key}-${x}`) === 1)) ? true : undefined,
    );
    await sleep(500); // the answered calls' journal rows commit (the held ones stay in flight)
    const killedAt = Date.now();
    await A().stop("SIGKILL");
    await Promise.all(answers);
    held.clear();

    for (const [i, sessionId] of sessions.entries()) {
      const turn = await waitFor(`turn ${keys[i]} to end`, async () => {
        const t = (await B().api("GET", `/v1/sessions/${sessionId}`)).body.turns[0] as { status: string };
        return t.status === "running" ? undefined : t;
      });
      expect(turn, keys[i]).toMatchObject({ status: "completed", content: "Done." });
      const trace = (await C().api("GET", `/v1/sessions/${sessionId}/trace`)).body.turns[0] as {
        events: { seq: number; type: string }[];
      };
      expect(
        trace.events.map((e) => e.seq),
        `${keys[i]}: event seqs`,
      ).toEqual(trace.events.map((_, n) => n + 1));
      const { messages } = (await B().api("GET", `/v1/sessions/${sessionId}`)).body as {
        messages: { role: string; content: string; tool?: string }[];
      };
      for (const x of ["a", "b", "c"]) {
        const key = `${keys[i]}-${x}`;
        const result = messages.find((m) => m.role === "tool" && m.tool === `charge_${x}`)?.content;
        if (x === heldAt[i]) expect(result, key).toBe(UNKNOWN);
        else expect(result, key).toBe(JSON.stringify({ charged: key }));
        expect(sent(key), key).toBe(1);
      }
    }
    // Taken over only after the dead owner's lease ran out, and not much later.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LEASE_S * 1000 - 1500);
  });

  it("SIGTERM of an instance whose turn outlasts the grace: its lease is given up, and B takes the turn over at once", async () => {
    // A fourth instance with a 30 s lease: without its lease given up, the turn would wait that out.
    const D = await startServer({
      env: { ...fleetEnv, INSIKA_TURN_LEASE: "30", INSIKA_SHUTDOWN_GRACE: "1", INSIKA_LOG_LEVEL: "info" },
    });
    try {
      held.add("term-b");
      const sessionId = await chargingSession(D, "term");
      const answer = D.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" }).catch(() => undefined);
      await waitFor("the batch in flight", async () =>
        ["a", "b", "c"].every((x) => sent(`term-${x}`) === 1) ? true : undefined,
      );
      await sleep(500); // a's and c's journal rows commit (b stays in flight)
      await D.stop("SIGTERM");
      const stopped = Date.now();
      await answer;
      held.clear();
      expect(D.output()).toContain("gave up the leases of the turns still running here");

      const turn = await waitFor("the turn to end", async () => {
        const t = (await B().api("GET", `/v1/sessions/${sessionId}`)).body.turns[0] as { status: string };
        return t.status === "running" ? undefined : t;
      });
      expect(Date.now() - stopped).toBeLessThan(10_000);
      expect(turn).toMatchObject({ status: "completed", content: "Done." });
      const { messages } = (await C().api("GET", `/v1/sessions/${sessionId}`)).body as {
        messages: { role: string; content: string; tool?: string }[];
      };
      for (const x of ["a", "b", "c"]) {
        const result = messages.find((m) => m.role === "tool" && m.tool === `charge_${x}`)?.content;
        expect(result, x).toBe(x === "b" ? UNKNOWN : JSON.stringify({ charged: `term-${x}` }));
        expect(sent(`term-${x}`), x).toBe(1);
      }
    } finally {
      await D.stop();
    }
  });
});
