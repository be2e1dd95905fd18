import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import type { Principal } from "@/lib/access/principal";
import type { Scope } from "@/lib/access/scopes";
import { DomainError } from "@/lib/errors";
import { startTurn, resumeTurnAs } from "@/lib/services/turns/start-turn";
import { listSessionRows } from "./session-page";
import { createSessionAs, getTraceAs, getTranscriptAs, listSessionsAs } from "./session-access";
import { MAX_TURNS_PER_PAGE } from "./turn-page";
import { agentRow } from "@/test/support/agent-row";

/** Every turn of these small sessions: one page of the most a page may hold. */
const ALL_TURNS = { afterSeq: 0, limit: MAX_TURNS_PER_PAGE };

async function seeded() {
  const db = openDb(":memory:");
  for (const id of ["a", "b"]) {
    await upsertAgent(db, agentRow(id));
  }
  await insertSession(db, { id: "s_a_t1", agentId: "a", tenant: "t1", now: 1 });
  await insertSession(db, { id: "s_a_t2", agentId: "a", tenant: "t2", now: 2 });
  await insertSession(db, { id: "s_b_t1", agentId: "b", tenant: "t1", now: 3 });
  await insertSession(db, { id: "s_a_none", agentId: "a", tenant: null, now: 4 });
  await insertTurn(db, { id: "turn_b", sessionId: "s_b_t1", userMessage: "hi" });
  return db;
}

const key = (scopes: Scope[], extra: Partial<Principal> = {}): Principal => ({
  keyId: "key_x",
  keyName: "x",
  scopes,
  agents: null,
  tenant: null,
  turnsPerMinute: null,
  source: "api",
  ...extra,
});

async function codeOf(fn: () => unknown): Promise<string | undefined> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof DomainError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return undefined;
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

describe("createSessionAs", () => {
  it("refuses an agent outside the key's list (naming it) and lets admin use any", async () => {
    const db = await seeded();
    const chat = key(["turns:run"], { agents: ["a"] });
    expect((await createSessionAs(db, chat, { agentId: "a" })).agent_id).toBe("a");
    expect(await codeOf(() => createSessionAs(db, chat, { agentId: "b" }))).toMatch(/^forbidden: .*agent 'b'/);
    expect((await createSessionAs(db, key(["admin"], { agents: ["a"] }), { agentId: "b" })).agent_id).toBe("b");
  });

  it("gives a pinned key's session the key's tenant and refuses another one, naming both", async () => {
    const db = await seeded();
    const pinned = key(["turns:run"], { tenant: "t1" });
    expect((await createSessionAs(db, pinned, { agentId: "a" })).tenant).toBe("t1");
    expect((await createSessionAs(db, pinned, { agentId: "a", tenant: "t1" })).tenant).toBe("t1");
    expect(await codeOf(() => createSessionAs(db, pinned, { agentId: "a", tenant: "t2" }))).toMatch(
      /^forbidden: .*'t1'.*'t2'/,
    );
    // Also an admin key, when pinned.
    expect(
      await codeOf(() => createSessionAs(db, key(["admin"], { tenant: "t1" }), { agentId: "a", tenant: "t2" })),
    ).toMatch(/^forbidden/);
    expect((await createSessionAs(db, key(["turns:run"]), { agentId: "a", tenant: "free" })).tenant).toBe("free");
  });
});

describe("reading sessions as a key", () => {
  it("lists only the sessions a key may see", async () => {
    const db = await seeded();
    expect(ids(await listSessionsAs(db, key(["traces:read"])))).toEqual(["s_a_none", "s_a_t1", "s_a_t2", "s_b_t1"]);
    expect(ids(await listSessionsAs(db, key(["traces:read"], { tenant: "t1" })))).toEqual(["s_a_t1", "s_b_t1"]);
    expect(ids(await listSessionsAs(db, key(["turns:run"], { agents: ["a"] })))).toEqual([
      "s_a_none",
      "s_a_t1",
      "s_a_t2",
    ]);
    expect(ids(await listSessionsAs(db, key(["turns:run"], { agents: ["a"], tenant: "t2" })))).toEqual(["s_a_t2"]);
    expect(ids(await listSessionsAs(db, key(["turns:run"], { agents: [] })))).toEqual([]);
    expect(ids(await listSessionsAs(db, key(["turns:run"], { agents: ["a"] }), "b"))).toEqual([]);
    // traces:read ignores the agent list (it reads every agent's traces) but not the pin.
    expect(ids(await listSessionsAs(db, key(["traces:read", "turns:run"], { agents: ["a"] }), "b"))).toEqual([
      "s_b_t1",
    ]);
    // The Studio's list, for the signed-in key.
    expect(ids(await listSessionRows(db, undefined, key(["turns:run"], { agents: ["a"], tenant: "t1" })))).toEqual([
      "s_a_t1",
    ]);
    expect(ids(await listSessionRows(db))).toHaveLength(4);
  });

  it("answers a session the key may not see as not found (transcript and trace)", async () => {
    const db = await seeded();
    const chat = key(["turns:run"], { agents: ["a"], tenant: "t1" });
    expect((await getTranscriptAs(db, chat, "s_a_t1", ALL_TURNS)).id).toBe("s_a_t1");
    for (const id of ["s_a_t2", "s_b_t1", "s_a_none", "s_missing"]) {
      expect(await codeOf(() => getTranscriptAs(db, chat, id, ALL_TURNS))).toBe(`not_found: session '${id}' not found`);
      expect(await codeOf(() => getTraceAs(db, chat, id, { page: ALL_TURNS }))).toBe(
        `not_found: session '${id}' not found`,
      );
    }
  });

  it("does not start or resume a turn in a session the key may not see", async () => {
    const db = await seeded();
    const chat = key(["turns:run"], { agents: ["a"] });
    await expect(startTurn(db, { sessionId: "s_b_t1", message: "hi", actor: chat })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await codeOf(() => resumeTurnAs(db, chat, "turn_b"))).toBe("not_found: turn 'turn_b' not found");
    expect(await codeOf(() => resumeTurnAs(db, chat, "turn_missing"))).toBe("not_found: turn 'turn_missing' not found");
  });
});
