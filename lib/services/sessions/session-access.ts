/**
 * Sessions as a key sees them (issue: access control). A key limited to agents may only
 * create sessions of those agents; a key pinned to a tenant creates sessions of that tenant
 * only (the tenant comes from the key, never from the request) and sees only that tenant's.
 * A session a key may not see is answered as not found: its existence is not revealed.
 */
import { z } from "zod";
import type { Db } from "@/db/database";
import { getSession, type SessionFilter } from "@/db/queries/sessions";
import { getTurn } from "@/db/queries/turns";
import type { SessionRow } from "@/db/schema";
import { hasAnyScope, mayUseAgent, maySeeSession, type Principal } from "@/lib/access/principal";
import { DomainError, notFound } from "@/lib/errors";
import { createSession } from "./create-session";
import { getTrace, getTranscript, listSessionsPresented } from "./sessions";
import type { TurnPage } from "./turn-page";

/** 403 unless the principal may start turns with this agent (admin: any agent). */
export function assertMayUseAgent(principal: Principal, agentId: string): void {
  if (hasAnyScope(principal, ["admin"]) || mayUseAgent(principal, agentId)) return;
  throw new DomainError(
    "forbidden",
    `this key may not use agent '${agentId}' (its agents: ${(principal.agents ?? []).join(", ") || "none"})`,
  );
}

/** The tenant of a new session: the key's when pinned (a different requested one is 403), else the requested one. */
export function sessionTenantFor(principal: Principal, requested: string | null | undefined): string | null {
  if (principal.tenant === null) return requested ?? null;
  if (requested != null && requested !== principal.tenant) {
    throw new DomainError(
      "forbidden",
      `this key is pinned to tenant '${principal.tenant}'; it cannot create a session of tenant '${requested}'`,
    );
  }
  return principal.tenant;
}

/** A new session as POST /v1/sessions takes it (the Studio's takes the agent only: its tenant is the key's). */
export const createSessionBody = z
  .object({ agent_id: z.string().min(1), tenant: z.string().min(1).max(200).nullish() })
  .strict();

/** Creates a session as `principal`: its agent limits and tenant pin apply. */
export async function createSessionAs(
  db: Db,
  principal: Principal,
  params: { agentId: string; tenant?: string | null },
) {
  assertMayUseAgent(principal, params.agentId);
  const tenant = sessionTenantFor(principal, params.tenant);
  return createSession(db, { agentId: params.agentId, tenant });
}

/** The session, if this principal may see it; not found otherwise (whether or not it exists). */
export async function getVisibleSessionOrThrow(db: Db, principal: Principal, id: string): Promise<SessionRow> {
  const session = await getSession(db, id);
  if (!session || !maySeeSession(principal, session)) throw notFound(`session '${id}'`);
  return session;
}

/** The session of a turn, if this principal may see it; the turn is not found otherwise. */
export async function getVisibleTurnSessionOrThrow(db: Db, principal: Principal, turnId: string): Promise<SessionRow> {
  const turn = await getTurn(db, turnId);
  const session = turn ? await getSession(db, turn.sessionId) : undefined;
  if (!session || !maySeeSession(principal, session)) throw notFound(`turn '${turnId}'`);
  return session;
}

/** The list filter that shows exactly the sessions maySeeSession allows. */
export function visibleSessionFilter(principal: Principal): SessionFilter {
  const filter: SessionFilter = {};
  if (principal.tenant !== null) filter.tenant = principal.tenant;
  if (!hasAnyScope(principal, ["traces:read"]))
    filter.agentIds = principal.scopes.includes("turns:run") ? (principal.agents ?? undefined) : [];
  if (filter.agentIds === undefined) delete filter.agentIds;
  return filter;
}

/** GET /v1/sessions as `principal`. */
export function listSessionsAs(db: Db, principal: Principal, agentId?: string) {
  return listSessionsPresented(db, { ...visibleSessionFilter(principal), ...(agentId ? { agentId } : {}) });
}

/** GET /v1/sessions/:id as `principal`: a page of its turns. */
export async function getTranscriptAs(db: Db, principal: Principal, id: string, page: TurnPage) {
  await getVisibleSessionOrThrow(db, principal, id);
  return getTranscript(db, id, page);
}

/** GET /v1/sessions/:id/trace as `principal`: a page of its turns, or one turn. */
export async function getTraceAs(
  db: Db,
  principal: Principal,
  id: string,
  options: { turnId?: string; page: TurnPage },
) {
  await getVisibleSessionOrThrow(db, principal, id);
  return getTrace(db, id, options);
}
