/**
 * OpenAI-style ids derived from the turn id, so a response id leads back to its turn (and
 * so to its session: previous_response_id continues the conversation with no extra table).
 */
const RESPONSE_PREFIX = "resp_";

export const responseId = (turnId: string) => `${RESPONSE_PREFIX}${turnId}`;
export const messageItemId = (turnId: string) => `msg_${turnId}`;
export const chatCompletionId = (turnId: string) => `chatcmpl-${turnId}`;

/** The turn id inside a response id, or null when it is not one of ours. */
export function turnIdOfResponse(id: string): string | null {
  return id.startsWith(RESPONSE_PREFIX) && id.length > RESPONSE_PREFIX.length ? id.slice(RESPONSE_PREFIX.length) : null;
}

/** Unix seconds, as OpenAI's `created` / `created_at`. */
export const unixSeconds = (ms: number = Date.now()) => Math.floor(ms / 1000);
