/**
 * Which Insika session an OpenAI-style request continues. `model` names the agent; a
 * session of another agent is refused (400) rather than run with the wrong agent.
 * Chat: the X-Insika-Session header or metadata.session_id, else a new session.
 * Responses: the session of the turn behind previous_response_id, else a new session.
 * The caller's key applies: an agent outside its list is 403 (permission_error, whether or
 * not the agent exists), a session it may not see (another tenant's, another agent's) is
 * 404 like an unknown one, a new session takes the key's tenant. An id holding U+0000 names
 * nothing: 400 before anything is looked up.
 */
import type { Db } from "@/db/client";
import { getAgent } from "@/db/queries/agents";
import { getSession } from "@/db/queries/sessions";
import { getTurn } from "@/db/queries/turns";
import { maySeeSession, type Principal } from "@/lib/access/principal";
import { DomainError } from "@/lib/errors";
import { assertMayUseAgent, createSessionAs } from "@/lib/services/sessions/session-access";
import { assertWithinRateLimit } from "@/lib/services/keys/rate-limit";
import { invalidRequest, notFoundError, permissionError, refuseNul } from "./openai-errors";
import { turnIdOfResponse } from "./ids";

export interface ResolvedSession {
  id: string;
  /** True when this request started the session. */
  created: boolean;
}

async function assertAgentUsable(db: Db, principal: Principal, agentId: string): Promise<void> {
  try {
    assertMayUseAgent(principal, agentId);
  } catch (error) {
    if (error instanceof DomainError) throw permissionError(error.message, "model_not_allowed", "model");
    throw error;
  }
  if (!(await getAgent(db, agentId)))
    throw notFoundError(`agent '${agentId}' not found (model names the agent)`, "model_not_found", "model");
  // Refused before a session is made for a turn that would be refused anyway.
  await assertWithinRateLimit(db, principal);
}

async function existingSession(
  db: Db,
  principal: Principal,
  agentId: string,
  sessionId: string,
): Promise<ResolvedSession> {
  const session = await getSession(db, sessionId);
  if (!session || !maySeeSession(principal, session))
    throw notFoundError(`session '${sessionId}' not found`, "session_not_found");
  if (session.agentId !== agentId) {
    throw invalidRequest(
      `session '${sessionId}' belongs to agent '${session.agentId}', not '${agentId}'`,
      "session_agent_mismatch",
      "model",
    );
  }
  return { id: session.id, created: false };
}

/** Chat Completions: the named session (header wins over metadata), else a new one. */
export async function chatSession(
  db: Db,
  principal: Principal,
  params: { agentId: string; sessionId?: string | null },
): Promise<ResolvedSession> {
  refuseNul(params.agentId, "model", "model");
  refuseNul(params.sessionId, "the session id (X-Insika-Session or metadata.session_id)", null);
  await assertAgentUsable(db, principal, params.agentId);
  if (params.sessionId) return existingSession(db, principal, params.agentId, params.sessionId);
  return { id: (await createSessionAs(db, principal, { agentId: params.agentId })).id, created: true };
}

/** Responses: the session of the previous response's turn, else a new one. */
export async function responsesSession(
  db: Db,
  principal: Principal,
  params: { agentId: string; previousResponseId?: string | null },
): Promise<ResolvedSession> {
  refuseNul(params.agentId, "model", "model");
  refuseNul(params.previousResponseId, "previous_response_id", "previous_response_id");
  await assertAgentUsable(db, principal, params.agentId);
  if (!params.previousResponseId)
    return { id: (await createSessionAs(db, principal, { agentId: params.agentId })).id, created: true };
  const turnId = turnIdOfResponse(params.previousResponseId);
  const turn = turnId ? await getTurn(db, turnId) : undefined;
  const session = turn ? await getSession(db, turn.sessionId) : undefined;
  if (!turn || !session || !maySeeSession(principal, session))
    throw notFoundError("previous response not found", "previous_response_not_found", "previous_response_id");
  return existingSession(db, principal, params.agentId, turn.sessionId);
}
