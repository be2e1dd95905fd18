/**
 * Running a turn for the OpenAI-compatible routes: to its end (not streamed), or streamed
 * through a format's sink. Either way it is an ordinary turn: recorded, traced, in the Studio.
 */
import type { Db } from "@/db/client";
import type { RunTurnResult } from "@/lib/engine/run-turn";
import { describeError, log } from "@/lib/log";
import type { Principal } from "@/lib/access/principal";
import { startTurn } from "@/lib/services/turns/start-turn";
import type { SseStream } from "@/lib/api/sse";
import { answerListener, usageOf, type AnswerSink, type TurnAnswer } from "./turn-answer";

interface TurnParams {
  sessionId: string;
  message: string;
  actor: Principal;
}

/**
 * Runs a turn to its end (or until it waits) and returns it as an answer. Not streamed: each
 * model step may be one non-streaming provider call.
 */
export async function answerTurn(db: Db, params: TurnParams): Promise<{ turnId: string; answer: TurnAnswer }> {
  let answer: TurnAnswer | undefined;
  const sink: AnswerSink = { start: () => undefined, text: () => undefined, end: (a) => (answer = a) };
  const turn = await startTurn(db, { ...params, streaming: false, listener: answerListener(sink) });
  const result = await turn.done;
  answer ??= {
    status: result.status,
    content: result.content,
    approvals: [],
    ...usageOf(result.usage),
    ...failureOf(result),
  };
  return { turnId: turn.turnId, answer };
}

/** A failed result's error, code and fault (nothing for any other). */
function failureOf(result: RunTurnResult): Pick<TurnAnswer, "error" | "code" | "fault"> {
  if (result.error === undefined) return {};
  return {
    error: result.error,
    ...(result.code ? { code: result.code } : {}),
    ...(result.fault ? { fault: result.fault } : {}),
  };
}

/**
 * Starts a turn written to `sse` by `sink` and returns the streaming response (its headers
 * carry X-Insika-Turn). `onLost` ends the stream if the turn could not be recorded.
 */
export async function streamTurn(
  db: Db,
  params: TurnParams & { sse: SseStream; sink: AnswerSink; onLost: () => void; headers: Record<string, string> },
): Promise<Response> {
  const turn = await startTurn(db, {
    sessionId: params.sessionId,
    message: params.message,
    actor: params.actor,
    streaming: true,
    listener: answerListener(params.sink),
  });
  turn.done.catch((error: unknown) => {
    log.error("OpenAI-compatible stream: turn not recorded", { turn_id: turn.turnId, ...describeError(error) });
    params.onLost();
    params.sse.close();
  });
  return params.sse.response({ ...params.headers, "x-insika-turn": turn.turnId });
}
