import { and, desc, eq, notInArray } from "drizzle-orm";
import type { Db } from "../client";
import { memories, type MemoryRow } from "../schema";

/** Stores one memory and keeps only the newest `keep` of that agent and tenant. */
export function insertMemory(
  db: Db,
  values: { agentId: string; tenant: string; text: string; keep: number; now?: number },
): MemoryRow {
  return db.transaction((tx) => {
    const row = tx
      .insert(memories)
      .values({
        agentId: values.agentId,
        tenant: values.tenant,
        text: values.text,
        createdAt: values.now ?? Date.now(),
      })
      .returning()
      .get();
    const scope = and(eq(memories.agentId, values.agentId), eq(memories.tenant, values.tenant));
    const kept = tx
      .select({ id: memories.id })
      .from(memories)
      .where(scope)
      .orderBy(desc(memories.id))
      .limit(values.keep)
      .all();
    tx.delete(memories)
      .where(
        and(
          scope,
          notInArray(
            memories.id,
            kept.map((k) => k.id),
          ),
        ),
      )
      .run();
    return row;
  });
}

/** The newest `limit` memories of an agent and tenant, oldest first. */
export function listMemories(db: Db, params: { agentId: string; tenant: string; limit: number }): MemoryRow[] {
  const newest = db
    .select()
    .from(memories)
    .where(and(eq(memories.agentId, params.agentId), eq(memories.tenant, params.tenant)))
    .orderBy(desc(memories.id))
    .limit(params.limit)
    .all();
  return newest.reverse();
}
