import type { RunTurnResult } from "@/lib/engine/run-turn";

/**
 * The JSON answer of a turn run without streaming (POST /v1/sessions/:id/turns, POST
 * /v1/turns/:id/resume): a failed one carries its `error` with its `code` and `fault`.
 */
export function turnResultJson(turnId: string, result: RunTurnResult) {
  const failure =
    result.error === undefined
      ? {}
      : { error: result.error, ...(result.code ? { code: result.code, fault: result.fault } : {}) };
  return { turn_id: turnId, status: result.status, content: result.content, ...failure };
}
