import { asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { agents, type AgentRow } from "../schema";
import { param, prepared } from "./prepared";
import { bumpCatalogVersion } from "./settings";

export type AgentValues = Omit<AgentRow, "createdAt" | "updatedAt">;

/** Every agent, by id. */
export function listAgents(db: Db): AgentRow[] {
  return db.select().from(agents).orderBy(asc(agents.id)).all();
}

/** One agent, or undefined. */
export function getAgent(db: Db, id: string): AgentRow | undefined {
  return prepared(db, "agents.get", (d) => d.select().from(agents).where(eq(agents.id, param("id"))).prepare()).get({ id });
}

/** Creates or replaces an agent; bumps the catalog version (policies are part of what a turn sees). */
export function upsertAgent(db: Db, values: AgentValues, now = Date.now()): { created: boolean; agent: AgentRow } {
  return db.transaction((tx) => {
    const existing = tx.select({ id: agents.id }).from(agents).where(eq(agents.id, values.id)).get();
    const agent = tx
      .insert(agents)
      .values({ ...values, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: agents.id, set: { ...values, updatedAt: now } })
      .returning()
      .get();
    bumpCatalogVersion(tx, now);
    return { created: !existing, agent };
  });
}

/** Deletes an agent; false when absent. */
export function deleteAgent(db: Db, id: string, now = Date.now()): boolean {
  return db.transaction((tx) => {
    const deleted = tx.delete(agents).where(eq(agents.id, id)).returning({ id: agents.id }).all();
    if (deleted.length > 0) bumpCatalogVersion(tx, now);
    return deleted.length > 0;
  });
}
