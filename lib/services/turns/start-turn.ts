/**
 * Starting a turn, the use case the API and the Studio call, and resuming one for a client;
 * both as the caller's key sees the sessions. The running itself (engine, persistence,
 * approvals, subagents) is in launch-turn.ts, resuming in resume-turn.ts.
 */
import type { Db } from "@/db/database";
import { getSession } from "@/db/queries/sessions";
import { getTurn } from "@/db/queries/turns";
import { maySeeSession, type Principal } from "@/lib/access/principal";
import { notFound, validationFailed } from "@/lib/errors";
import { turnRateLimit } from "@/lib/services/keys/rate-limit";
import { getAgentForTurnOrThrow } from "@/lib/services/agents/agents";
import type { EventListener } from "./turn-recorder";
import { startNewTurn, type StartedTurn } from "./launch-turn";
import { resumeTurn } from "./resume-turn";

/**
 * Starts a turn: resolves once its row is written, while it runs; `done` settles when it
 * ends or waits. The turn keeps running if the client goes away (and survives a restart:
 * it is resumed). One running or waiting turn per session (409 otherwise); 409 too when the
 * session's agent was deleted. `signal`
 * cancels the turn. `streaming` (default true) says whether the client reads the text as it is
 * produced; false lets each model step be one non-streaming provider call (same events).
 *
 * `actor` is who starts it: a session it may not see is not found (maySeeSession), the
 * turn row records its key, and its turns-per-minute limit applies (429). null: the
 * operator's own tooling (bench), unchecked and not counted.
 */
export async function startTurn(
  db: Db,
  params: {
    sessionId: string;
    message: string;
    actor: Principal | null;
    listener?: EventListener;
    signal?: AbortSignal;
    streaming?: boolean;
  },
): Promise<StartedTurn> {
  if (params.message.trim() === "") throw validationFailed("message must not be empty");
  const session = await getSession(db, params.sessionId);
  if (!session || (params.actor && !maySeeSession(params.actor, session)))
    throw notFound(`session '${params.sessionId}'`);
  const rateLimit = params.actor ? turnRateLimit(params.actor) : undefined;
  const agent = await getAgentForTurnOrThrow(db, session.agentId);
  return startNewTurn(db, {
    session,
    agent,
    message: params.message,
    depth: 0,
    exclusive: true,
    ...(params.actor ? { keyId: params.actor.keyId } : {}),
    ...(rateLimit ? { rateLimit } : {}),
    ...(params.listener ? { listener: params.listener } : {}),
    ...(params.signal ? { signal: params.signal } : {}),
    ...(params.streaming === false ? { streaming: false } : {}),
  });
}

/** Resumes a turn for a client: a turn in a session `actor` may not see is not found. */
export async function resumeTurnAs(
  db: Db,
  actor: Principal,
  turnId: string,
  listener?: EventListener,
): Promise<StartedTurn> {
  const turn = await getTurn(db, turnId);
  const session = turn ? await getSession(db, turn.sessionId) : undefined;
  if (!session || !maySeeSession(actor, session)) throw notFound(`turn '${turnId}'`);
  return resumeTurn(db, turnId, listener ? { listener } : {});
}
