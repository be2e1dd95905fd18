/**
 * Crash safety (DESIGN D9) against the real server: a turn whose batch has three
 * side-effecting calls is killed with SIGKILL at many points — before, during and after the
 * batch — then the server restarts and the turn is resumed (at start, or over the API). Every
 * side effect must have happened at most once, the transcript must have no gaps, and the turn
 * must end. Kill points come from the scripted provider's `crash_after` (the server kills
 * itself right after persisting the named event) or from the backend holding a request
 * while the test kills the server.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

const UNKNOWN_ERROR = "outcome unknown: the call was in flight when the server stopped; it was not retried";
const UNKNOWN = JSON.stringify({ error: UNKNOWN_ERROR });
const CHARGE_TOKEN = "charge-token-never-in-a-trace";
const TERMINAL = new Set(["turn_completed", "turn_halted", "turn_failed", "turn_waiting"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Fate = "ok" | "unknown";
interface KillPoint {
  name: string;
  /** `crash_after` for the scripted provider (the server kills itself there). */
  crashAfter?: string;
  /** Or: hold this call's request at the backend and SIGKILL the server while it is in flight. */
  hold?: "a" | "b" | "c";
  /** What the model must have been told for calls a, b and c. */
  fates: [Fate, Fate, Fate];
  /** Resume over POST /v1/turns/:id/resume instead of at start. */
  manual?: boolean;
  /** The terminal event was already written: the restart only records it. */
  ended?: boolean;
}

const OK3: [Fate, Fate, Fate] = ["ok", "ok", "ok"];
const POINTS: KillPoint[] = [
  { name: "before the model answered", crashAfter: "turn_started", fates: OK3 },
  { name: "while the model streams step 0", crashAfter: "text_delta:1", fates: OK3, manual: true },
  { name: "call a journaled, not yet sent", crashAfter: "tool_call:1", fates: ["unknown", "ok", "ok"] },
  { name: "call a in flight at the backend", hold: "a", fates: ["unknown", "ok", "ok"] },
  { name: "after a's result, before b", crashAfter: "tool_result:1", fates: OK3 },
  { name: "call b journaled, not yet sent", crashAfter: "tool_call:2", fates: ["ok", "unknown", "ok"], manual: true },
  { name: "call b in flight at the backend", hold: "b", fates: ["ok", "unknown", "ok"], manual: true },
  { name: "after b's result, before c", crashAfter: "tool_result:2", fates: OK3 },
  { name: "call c journaled, not yet sent", crashAfter: "tool_call:3", fates: ["ok", "ok", "unknown"] },
  { name: "call c in flight at the backend", hold: "c", fates: ["ok", "ok", "unknown"] },
  { name: "after the batch, before its checkpoint", crashAfter: "tool_result:3", fates: OK3, manual: true },
  { name: "while the model streams the answer", crashAfter: "text_delta:2", fates: OK3 },
  { name: "after turn_completed (committed with the turn row)", crashAfter: "turn_completed", fates: OK3, ended: true },
];

describe("SIGKILL at every point of a side-effecting turn, then resume", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let scripts: string;
  const held = new Set<string>();

  const sent = (key: string) =>
    backend.requests.filter((r) => r.method === "POST" && JSON.parse(r.body || "{}").key === key).length;
  const script = (point: string, crashAfter?: string, name = "crash") =>
    fs.writeFileSync(
      path.join(scripts, `${name}.json`),
      JSON.stringify({
        steps: [
          [
            { type: "text", text: "Charging. " },
            ...["a", "b", "c"].map((x) => ({ type: "tool-call", name: `charge_${x}`, args: { key: `${point}-${x}` } })),
          ],
          [
            { type: "text", text: "Done" },
            { type: "text", text: " charging." },
          ],
        ],
        ...(crashAfter ? { crash_after: crashAfter } : {}),
      }),
    );

  async function turnOf(sessionId: string) {
    return (await server.api("GET", `/v1/sessions/${sessionId}`)).body.turns[0] as {
      id: string;
      status: string;
      content: string;
    };
  }

  async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const value = await probe();
      if (value !== undefined) return value;
      await sleep(50);
    }
    throw new Error(`timed out waiting for ${what}\n${server.output().slice(-3000)}`);
  }

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    scripts = tempDir("insika-crash-scripts-");
    server = await startServer({
      // A short lease: the killed server's turns become free about a second after its last renewal.
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
        INSIKA_TURN_LEASE: "1",
        INSIKA_SECRET_CHARGE_TOKEN: CHARGE_TOKEN,
      },
    });
    for (const x of ["a", "b", "c"]) {
      backend.route("POST", `/charge/${x}`, (req) => {
        const key = JSON.parse(req.body).key as string;
        return { body: { charged: key }, ...(held.has(key) ? { delayMs: 8_000 } : {}) };
      });
      const put = await server.api("PUT", `/v1/tools/charge_${x}`, {
        name: `charge_${x}`,
        description: `charge ${x}`,
        parameters: "key | string | required | idempotency key",
        request: {
          method: "POST",
          url: `${backend.url}/charge/${x}`,
          headers: { Authorization: "Bearer {{secret.charge_token}}" },
          body: { key: "{{key}}" },
        },
        secret_headers: ["Authorization"],
      });
      expect(put.status).toBe(201);
    }
    script("setup");
    expect(
      (await server.api("PUT", "/v1/agents/crash", { model: { provider: "scripted", model: "crash" } })).status,
    ).toBe(201);
    script("setup", undefined, "crashpar");
    const par = { model: { provider: "scripted", model: "crashpar" }, limits: { tool_concurrency: 3 } };
    expect((await server.api("PUT", "/v1/agents/crashpar", par)).status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
  });

  it.each(POINTS.map((point, i) => [i + 1, point.name, point] as const))(
    "kill point %i: %s",
    async (n, _name, point) => {
      const key = `p${n}`;
      script(key, point.crashAfter);
      server.env.INSIKA_RESUME_ON_START = point.manual ? "0" : "1";
      const sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "crash" })).body.id as string;
      if (point.hold) held.add(`${key}-${point.hold}`);

      const request = server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" }).then(
        (res) => ({ answered: res }),
        () => ({ answered: undefined }),
      );
      if (point.hold) {
        await waitFor("the held request", async () => (sent(`${key}-${point.hold}`) === 1 ? true : undefined));
        await server.stop("SIGKILL");
      }
      // The request dies with the server: it must never have been answered.
      expect((await request).answered).toBeUndefined();
      await server.restart();

      const turnId = (await turnOf(sessionId)).id;
      if (point.manual) {
        // 409 while the dead server's lease on the turn has not expired yet (it is not known to be dead).
        const resumed = await waitFor("the dead server's lease to expire", async () => {
          const res = await server.api("POST", `/v1/turns/${turnId}/resume`);
          return res.status === 409 && /running in another process/.test(res.body.error.message) ? undefined : res;
        });
        expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
        expect(resumed.body).toMatchObject({ turn_id: turnId, status: "completed", content: "Done charging." });
      }
      const turn = await waitFor("the turn to end", async () => {
        const t = await turnOf(sessionId);
        return t.status === "running" ? undefined : t;
      });
      expect(turn).toMatchObject({ status: "completed", content: "Done charging." });

      // At most once per side effect; exactly once for every call whose result the model has.
      const fates = point.fates;
      ["a", "b", "c"].forEach((x, i) => {
        const count = sent(`${key}-${x}`);
        expect(count, `call ${x}`).toBeLessThanOrEqual(1);
        if (fates[i] === "ok") expect(count, `call ${x}`).toBe(1);
      });

      // The transcript has no gaps: one assistant message with the three calls, one result each, in order, then the answer.
      const { messages } = (await server.api("GET", `/v1/sessions/${sessionId}`)).body as {
        messages: { role: string; content: string; tool_calls?: { id: string }[]; call_id?: string }[];
      };
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "tool", "assistant"]);
      expect(messages[2 - 1]?.tool_calls?.map((c) => c.id)).toEqual(messages.slice(2, 5).map((m) => m.call_id));
      messages.slice(2, 5).forEach((m, i) => {
        const x = ["a", "b", "c"][i];
        expect(m.content, `result of ${x}`).toBe(
          fates[i] === "ok" ? JSON.stringify({ charged: `${key}-${x}` }) : UNKNOWN,
        );
      });
      expect(messages[5]?.content).toBe("Done charging.");

      // The trace ends once, and says it resumed (unless the end had been written already).
      const trace = (await server.api("GET", `/v1/sessions/${sessionId}/trace`)).body.turns[0] as {
        events: { type: string }[];
        calls: Record<string, unknown>[];
      };
      // Every call has its record; an "outcome unknown" one says what it sent (secret masked), no status, the reason as error.
      expect(trace.calls.map((c) => c.tool).sort()).toEqual(["charge_a", "charge_b", "charge_c"]);
      ["a", "b", "c"].forEach((x, i) => {
        const record = trace.calls.find((c) => c.tool === `charge_${x}`)!;
        expect(record, `record of ${x}`).toMatchObject({
          kind: "data",
          arguments: { key: `${key}-${x}` },
          request: { method: "POST", url: `${backend.url}/charge/${x}`, headers: { Authorization: "[secret]" } },
        });
        if (fates[i] === "unknown")
          expect(record).toMatchObject({
            ok: false,
            status: null,
            error: UNKNOWN_ERROR,
            result: UNKNOWN,
            outcome_unknown: true,
          });
        else expect(record).toMatchObject({ ok: true, status: 200 });
      });
      expect(JSON.stringify(trace)).not.toContain(CHARGE_TOKEN);
      const types = trace.events.map((e) => e.type);
      expect(types.filter((t) => TERMINAL.has(t))).toEqual(["turn_completed"]);
      expect(types.at(-1)).toBe("turn_completed");
      expect(types.includes("turn_resumed")).toBe(!point.ended);

      if (point.manual) expect((await server.api("POST", `/v1/turns/${turnId}/resume`)).status).toBe(409);
    },
  );

  it("parallel batch (tool_concurrency 3) killed with one call in flight: every call once at most, each result known or reported unknown", async () => {
    const key = "par";
    script(key, undefined, "crashpar");
    server.env.INSIKA_RESUME_ON_START = "1";
    held.add(`${key}-b`);
    const sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "crashpar" })).body.id as string;
    const request = server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" }).catch(() => undefined);
    await waitFor("all three requests", async () =>
      ["a", "b", "c"].every((x) => sent(`${key}-${x}`) === 1) ? true : undefined,
    );
    await server.stop("SIGKILL");
    await request;
    await server.restart();
    const turn = await waitFor("the turn to end", async () => {
      const t = await turnOf(sessionId);
      return t.status === "running" ? undefined : t;
    });
    expect(turn.status).toBe("completed");
    const { messages } = (await server.api("GET", `/v1/sessions/${sessionId}`)).body as {
      messages: { role: string; content: string; tool?: string }[];
    };
    const results = messages.filter((m) => m.role === "tool");
    expect(results.map((m) => m.tool).sort()).toEqual(["charge_a", "charge_b", "charge_c"]);
    for (const x of ["a", "b", "c"]) {
      expect(sent(`${key}-${x}`)).toBe(1);
      const content = results.find((m) => m.tool === `charge_${x}`)?.content;
      expect([JSON.stringify({ charged: `${key}-${x}` }), UNKNOWN]).toContain(content);
    }
    expect(results.find((m) => m.tool === "charge_b")?.content).toBe(UNKNOWN);
  });

  it("refuses to resume an unknown turn (404) and a finished one (409)", async () => {
    expect((await server.api("POST", "/v1/turns/turn_nope/resume")).status).toBe(404);
    script("done");
    const sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "crash" })).body.id as string;
    const done = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "charge" });
    expect(done.body.status).toBe("completed");
    const again = await server.api("POST", `/v1/turns/${done.body.turn_id}/resume`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("this turn already ended (completed)");
  });
});
