/**
 * Starting a turn, the use case the API and the Studio call. The running itself (engine,
 * persistence, approvals, subagents) is in launch-turn.ts, resuming in resume-turn.ts.
 */
import type { Db } from "@/db/client";
import { getSession } from "@/db/queries/sessions";
import { notFound, validationFailed } from "@/lib/errors";
import { getAgentForTurnOrThrow } from "@/lib/services/agents/agents";
import type { EventListener } from "./turn-recorder";
import { startNewTurn, type StartedTurn } from "./launch-turn";

/**
 * Starts a turn: resolves once its row is written, while it runs; `done` settles when it
 * ends or waits. The turn keeps running if the client goes away (and survives a restart:
 * it is resumed). One running or waiting turn per session (409 otherwise); 409 too when the
 * session's agent was deleted. `signal`
 * cancels the turn.
 */
export async function startTurn(
  db: Db,
  params: { sessionId: string; message: string; listener?: EventListener; signal?: AbortSignal },
): Promise<StartedTurn> {
  if (params.message.trim() === "") throw validationFailed("message must not be empty");
  const session = getSession(db, params.sessionId);
  if (!session) throw notFound(`session '${params.sessionId}'`);
  const agent = getAgentForTurnOrThrow(db, session.agentId);
  return startNewTurn(db, {
    session,
    agent,
    message: params.message,
    depth: 0,
    exclusive: true,
    ...(params.listener ? { listener: params.listener } : {}),
    ...(params.signal ? { signal: params.signal } : {}),
  });
}
