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
  return { turnId: turn.turnId, answer: answer ?? resultAnswer(result) };
}

/**
 * The answer a run's result gives, for a run whose ending never reached the listener: its end
 * could not be recorded (the database lost, the turn taken over), so no terminal event was sent.
 */
function resultAnswer(result: RunTurnResult): TurnAnswer {
  return {
    status: result.status,
    content: result.content,
    approvals: [],
    ...usageOf(result.usage),
    ...failureOf(result),
  };
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
 * carry X-Insika-Turn). A run whose ending never reached the sink (its end could not be
 * recorded) is ended with its result; `onLost` ends the stream in the last resort, a run that
 * rejects instead of settling with a result.
 */
export async function streamTurn(
  db: Db,
  params: TurnParams & { sse: SseStream; sink: AnswerSink; onLost: () => void; headers: Record<string, string> },
): Promise<Response> {
  let ended = false;
  const sink: AnswerSink = {
    start: (turnId) => params.sink.start(turnId),
    text: (delta) => params.sink.text(delta),
    end: (answer) => {
      ended = true;
      params.sink.end(answer);
    },
  };
  const turn = await startTurn(db, {
    sessionId: params.sessionId,
    message: params.message,
    actor: params.actor,
    streaming: true,
    listener: answerListener(sink),
  });
  turn.done.then(
    (result) => {
      if (ended) return;
      try {
        sink.end(resultAnswer(result));
      } catch (error) {
        log.error("OpenAI-compatible stream writer failed", { turn_id: turn.turnId, ...describeError(error) });
        params.sse.close();
      }
    },
    (error: unknown) => {
      log.error("OpenAI-compatible stream: turn not recorded", { turn_id: turn.turnId, ...describeError(error) });
      params.onLost();
      params.sse.close();
    },
  );
  return params.sse.response({ ...params.headers, "x-insika-turn": turn.turnId });
}
