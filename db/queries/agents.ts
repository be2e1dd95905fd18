import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../database";
import type { AgentRow } from "../schema";
import { param } from "./prepared";
import { bumpCatalogVersion } from "./settings";
import { recordTurnEnd } from "./turns";
import { lastEventSeq } from "./traces";

export type AgentValues = Omit<AgentRow, "createdAt" | "updatedAt" | "archivedAt">;

/** Every live agent (archived ones left out), by id; `includeArchived` for history views. */
export function listAgents(db: Db, options: { includeArchived?: boolean } = {}): Promise<AgentRow[]> {
  const { agents } = db.t;
  return db.all(
    db.orm
      .select()
      .from(agents)
      .where(options.includeArchived ? undefined : isNull(agents.archivedAt))
      .orderBy(asc(agents.id)),
  );
}

/** One live agent, or undefined (an archived agent is not one: it starts nothing). */
export function getAgent(db: Db, id: string): Promise<AgentRow | undefined> {
  return db
    .prepared("agents.get", (o, { agents }) =>
      o
        .select()
        .from(agents)
        .where(and(eq(agents.id, param("id")), isNull(agents.archivedAt))),
    )
    .get({ id });
}

/** One agent row, archived or not (for what its history needs: a resume must know which). */
export function getAgentRecord(db: Db, id: string): Promise<AgentRow | undefined> {
  return db
    .prepared("agents.getRecord", (o, { agents }) =>
      o
        .select()
        .from(agents)
        .where(eq(agents.id, param("id"))),
    )
    .get({ id });
}

/**
 * Creates or replaces an agent; bumps the catalog version (policies are part of what a turn
 * sees). Replacing an archived agent brings it back (`created`: it was not there), with its
 * history: sessions, traces and memories are keyed by the agent id.
 */
export function upsertAgent(
  db: Db,
  values: AgentValues,
  now = Date.now(),
): Promise<{ created: boolean; agent: AgentRow }> {
  return db.transaction(async (tx) => {
    const { agents } = tx.t;
    const existing = await tx.get(
      tx.orm.select({ id: agents.id, archivedAt: agents.archivedAt }).from(agents).where(eq(agents.id, values.id)),
    );
    const agent = (await tx.get(
      tx.orm
        .insert(agents)
        .values({ ...values, archivedAt: null, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: agents.id, set: { ...values, archivedAt: null, updatedAt: now } })
        .returning(),
    ))!;
    await bumpCatalogVersion(tx, now);
    return { created: !existing || existing.archivedAt !== null, agent };
  });
}

/** What deleting an agent did; undefined when there was no live agent of that id. */
export interface ArchivedAgent {
  id: string;
  /** Turns that were waiting for an approval: failed now (their approvals expired). */
  failedTurns: string[];
}

/**
 * Deletes an agent by archiving it, in one transaction: the row stays (its sessions, turns,
 * traces, approvals, journals and memories keep their agent and stay readable), it leaves
 * every list, and nothing new starts for it. Its turns waiting for an approval end here,
 * failed with `reason` and a turn_failed event, their pending approvals expired: nobody can
 * approve work for an agent that is gone. A turn that is running finishes on its own.
 */
export function archiveAgent(db: Db, id: string, now = Date.now()): Promise<ArchivedAgent | undefined> {
  const reason = `agent '${id}' was deleted while this turn waited for an approval`;
  return db.transaction(async (tx) => {
    const { agents, approvals, sessions, turns } = tx.t;
    const archived = await tx.all(
      tx.orm
        .update(agents)
        .set({ archivedAt: now, updatedAt: now })
        .where(and(eq(agents.id, id), isNull(agents.archivedAt)))
        .returning({ id: agents.id }),
    );
    if (archived.length === 0) return undefined;
    const waitingRows = await tx.all(
      tx.orm
        .select({ id: turns.id })
        .from(turns)
        .innerJoin(sessions, eq(sessions.id, turns.sessionId))
        .where(and(eq(sessions.agentId, id), eq(turns.status, "waiting"))),
    );
    const waiting = waitingRows.map((t) => t.id);
    if (waiting.length > 0) {
      await tx.run(
        tx.orm
          .update(approvals)
          .set({ status: "expired", decidedAt: now, note: `agent '${id}' was deleted` })
          .where(and(inArray(approvals.turnId, waiting), eq(approvals.status, "pending"))),
      );
      for (const turnId of waiting) {
        const event = {
          turnId,
          seq: (await lastEventSeq(tx, turnId)) + 1,
          type: "turn_failed",
          data: { error: reason, code: "agent_deleted", fault: "configuration" },
          at: now,
        };
        await recordTurnEnd(tx, { event, messages: [], turn: { id: turnId, status: "failed", error: reason }, now });
      }
    }
    await bumpCatalogVersion(tx, now);
    return { id, failedTurns: waiting };
  });
}
