/**
 * Issue 14.7 against the real server: a crashed process's turns are always resumed, even
 * when its PID still looks alive (a zombie not yet reaped, or a PID reused after a container
 * restart). Rounds of several concurrent side-effecting turns are SIGKILLed mid-call; while
 * the server is down, every turn's recorded runner PID is rewritten to the test runner's own
 * (alive) PID — what ownership by PID mistook for a live owner and skipped forever. After
 * the restart, every turn must end (taken over once the dead owner's lease expired), with
 * no side-effecting call sent twice and every call whose result the model has sent once.
 */
import fs from "node:fs";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { getCheckpoint } from "@/db/queries/checkpoints";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHARGE_ENDPOINTS, chargeTool, chargesSent, routeCharges } from "../support/charge-backend";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";
import { openServerDb } from "../support/test-database";

const UNKNOWN = JSON.stringify({
  error: "outcome unknown: the call was in flight when the server stopped; it was not retried",
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TURNS_PER_ROUND = 5;
const ROUNDS = 3;

describe("leases: turns of a killed server whose PID looks alive are resumed", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let scripts: string;
  const held = new Set<string>();
  const sent = (key: string) => chargesSent(backend, key);

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    scripts = tempDir("insika-lease-scripts-");
    server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
        INSIKA_TURN_LEASE: "2",
      },
    });
    routeCharges(backend, held, 8_000);
    for (const x of CHARGE_ENDPOINTS) {
      const put = await server.api("PUT", `/v1/tools/charge_${x}`, chargeTool(backend, x));
      expect(put.status).toBe(201);
    }
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
  });

  /** An agent whose one turn charges a, b and c (serially) with keys `<key>-a` ..., then answers. */
  async function chargingSession(key: string): Promise<string> {
    const steps = [
      [
        { type: "text", text: "Charging. " },
        ...["a", "b", "c"].map((x) => ({ type: "tool-call", name: `charge_${x}`, args: { key: `${key}-${x}` } })),
      ],
      [{ type: "text", text: "Done." }],
    ];
    fs.writeFileSync(path.join(scripts, `${key}.json`), JSON.stringify(steps));
    expect((await server.api("PUT", `/v1/agents/${key}`, { model: { provider: "scripted", model: key } })).status).toBe(
      201,
    );
    return (await server.api("POST", "/v1/sessions", { agent_id: key })).body.id as string;
  }

  async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 40_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const value = await probe();
      if (value !== undefined) return value;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${what}\n${server.output().slice(-3000)}`);
  }

  /** What a zombie (or a reused PID) looks like: the recorded runner is a live process. */
  async function pretendOwnerAlive(): Promise<number> {
    const db = openServerDb(server);
    try {
      const { checkpoints, turns } = db.t;
      return await db.run(
        db.orm
          .update(checkpoints)
          .set({ runnerPid: process.pid })
          .where(
            inArray(checkpoints.turnId, db.orm.select({ id: turns.id }).from(turns).where(eq(turns.status, "running"))),
          ),
      );
    } finally {
      await db.close();
    }
  }

  it(`${ROUNDS} rounds of ${TURNS_PER_ROUND} turns killed mid-call: every turn ends, no call sent twice`, async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const keys = Array.from({ length: TURNS_PER_ROUND }, (_, i) => `r${round}t${i}`);
      // Each turn is held at a different call, so the kill finds them at different points.
      const heldAt = keys.map((_, i) => ["a", "b", "c"][i % 3]!);
      keys.forEach((key, i) => held.add(`${key}-${heldAt[i]}`));
      const sessions = await Promise.all(keys.map((key) => chargingSession(key)));
      const answers = sessions.map((id) =>
        server.api("POST", `/v1/sessions/${id}/turns`, { message: "charge" }).catch(() => undefined),
      );
      await waitFor("every turn's held call", async () =>
        keys.every((key, i) => sent(`${key}-${heldAt[i]}`) === 1) ? true : undefined,
      );
      await server.stop("SIGKILL");
      await Promise.all(answers);
      held.clear();
      expect(await pretendOwnerAlive()).toBe(TURNS_PER_ROUND);
      await server.restart();

      for (const [i, sessionId] of sessions.entries()) {
        const turn = await waitFor(`turn ${keys[i]} to end`, async () => {
          const t = (await server.api("GET", `/v1/sessions/${sessionId}`)).body.turns[0] as {
            status: string;
            content: string;
          };
          return t.status === "running" ? undefined : t;
        });
        expect(turn, keys[i]).toMatchObject({ status: "completed", content: "Done." });
        const { messages } = (await server.api("GET", `/v1/sessions/${sessionId}`)).body as {
          messages: { role: string; content: string; tool?: string }[];
        };
        for (const x of ["a", "b", "c"]) {
          const key = `${keys[i]}-${x}`;
          const result = messages.find((m) => m.role === "tool" && m.tool === `charge_${x}`)?.content;
          // The held call was in flight at the kill: reported unknown, never sent again.
          if (x === heldAt[i]) expect(result, key).toBe(UNKNOWN);
          else expect(result, key).toBe(JSON.stringify({ charged: key }));
          expect(sent(key), key).toBe(1); // before the kill, or after the resume: once either way
        }
      }
    }
  });

  it("a live owner holds an unexpired lease on its running turn, and a resume request is refused (409)", async () => {
    const sessionId = await chargingSession("live");
    held.add("live-a");
    const answer = server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" }).catch(() => undefined);
    await waitFor("the held call", async () => (sent("live-a") === 1 ? true : undefined));
    const turnId = (await server.api("GET", `/v1/sessions/${sessionId}`)).body.turns[0].id as string;
    // Another process asking while the owner (this server, alive) keeps renewing.
    const db = openServerDb(server);
    const row = await getCheckpoint(db, turnId);
    await db.close();
    const owner = { instance: row?.runnerInstance, until: row?.leaseExpiresAt ?? 0 };
    expect(owner.instance).toMatch(/^ins_/);
    expect(owner.until).toBeGreaterThan(Date.now());
    const resumed = await server.api("POST", `/v1/turns/${turnId}/resume`);
    expect(resumed.status).toBe(409);
    held.clear();
    await answer;
  });
});
