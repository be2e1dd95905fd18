import { and, desc, eq, notInArray } from "drizzle-orm";
import type { Db } from "../database";
import type { MemoryRow } from "../schema";
import { storableText } from "./prepared";

/** Stores one memory and keeps only the newest `keep` of that agent and tenant. */
export function insertMemory(
  db: Db,
  values: { agentId: string; tenant: string; text: string; keep: number; now?: number },
): Promise<MemoryRow> {
  return db.transaction(async (tx) => {
    const { memories } = tx.t;
    const row = (await tx.get(
      tx.orm
        .insert(memories)
        .values({
          agentId: values.agentId,
          tenant: values.tenant,
          text: storableText(db, values.text),
          createdAt: values.now ?? Date.now(),
        })
        .returning(),
    ))!;
    const scope = and(eq(memories.agentId, values.agentId), eq(memories.tenant, values.tenant));
    const kept = await tx.all(
      tx.orm.select({ id: memories.id }).from(memories).where(scope).orderBy(desc(memories.id)).limit(values.keep),
    );
    await tx.run(
      tx.orm.delete(memories).where(
        and(
          scope,
          notInArray(
            memories.id,
            kept.map((k) => k.id),
          ),
        ),
      ),
    );
    return row;
  });
}

/** The newest `limit` memories of an agent and tenant, oldest first. */
export async function listMemories(
  db: Db,
  params: { agentId: string; tenant: string; limit: number },
): Promise<MemoryRow[]> {
  const { memories } = db.t;
  const newest = await db.all(
    db.orm
      .select()
      .from(memories)
      .where(and(eq(memories.agentId, params.agentId), eq(memories.tenant, params.tenant)))
      .orderBy(desc(memories.id))
      .limit(params.limit),
  );
  return newest.reverse();
}
