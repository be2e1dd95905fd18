/**
 * The fixture of the lease and resume tests: an in-memory database with agent "a" and its
 * session "s", and running turns of that session owned by a given process start.
 */
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import type { SqliteDatabase } from "@/db/sqlite-database";
import type { AgentValues } from "@/db/queries/agents";
import { agentRow } from "./agent-row";

/** A database holding agent "a" (`agent` overrides its row) and its session "s". */
export async function sessionDb(agent: Partial<AgentValues> = {}): Promise<SqliteDatabase> {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a", agent));
  await insertSession(db, { id: "s", agentId: "a", tenant: null });
  return db;
}

/** A running turn `id` of session "s" (message "go"), its lease held by `runner` until `leaseUntil`. */
export function insertRunningTurn(
  db: SqliteDatabase,
  id: string,
  runner: { instance: string; pid?: number; leaseUntil: number },
  depth = 2,
) {
  return insertTurn(db, {
    id,
    sessionId: "s",
    userMessage: "go",
    depth,
    runner: { pid: 4242, ...runner },
  });
}
