/**
 * Which Insika session an OpenAI-style request continues. `model` names the agent; a
 * session of another agent is refused (400) rather than run with the wrong agent.
 * Chat: the X-Insika-Session header or metadata.session_id, else a new session.
 * Responses: the session of the turn behind previous_response_id, else a new session.
 */
import type { Db } from "@/db/client";
import { getAgent } from "@/db/queries/agents";
import { getSession, getTurn } from "@/db/queries/sessions";
import { createSession } from "@/lib/services/sessions/create-session";
import { invalidRequest, notFoundError } from "./openai-errors";
import { turnIdOfResponse } from "./ids";

export interface ResolvedSession {
  id: string;
  /** True when this request started the session. */
  created: boolean;
}

function assertAgentExists(db: Db, agentId: string): void {
  if (!getAgent(db, agentId)) throw notFoundError(`agent '${agentId}' not found (model names the agent)`, "model_not_found", "model");
}

function existingSession(db: Db, agentId: string, sessionId: string): ResolvedSession {
  const session = getSession(db, sessionId);
  if (!session) throw notFoundError(`session '${sessionId}' not found`, "session_not_found");
  if (session.agentId !== agentId) {
    throw invalidRequest(`session '${sessionId}' belongs to agent '${session.agentId}', not '${agentId}'`, "session_agent_mismatch", "model");
  }
  return { id: session.id, created: false };
}

/** Chat Completions: the named session (header wins over metadata), else a new one. */
export function chatSession(db: Db, params: { agentId: string; sessionId?: string | null }): ResolvedSession {
  assertAgentExists(db, params.agentId);
  if (params.sessionId) return existingSession(db, params.agentId, params.sessionId);
  return { id: createSession(db, { agentId: params.agentId }).id, created: true };
}

/** Responses: the session of the previous response's turn, else a new one. */
export function responsesSession(db: Db, params: { agentId: string; previousResponseId?: string | null }): ResolvedSession {
  assertAgentExists(db, params.agentId);
  if (!params.previousResponseId) return { id: createSession(db, { agentId: params.agentId }).id, created: true };
  const turnId = turnIdOfResponse(params.previousResponseId);
  const turn = turnId ? getTurn(db, turnId) : undefined;
  if (!turn) throw notFoundError("previous response not found", "previous_response_not_found", "previous_response_id");
  return existingSession(db, params.agentId, turn.sessionId);
}
