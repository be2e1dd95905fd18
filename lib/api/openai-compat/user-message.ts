/**
 * "Only the new user message is run": the session already holds the history, so of what a
 * client sends (often its whole replayed conversation) only the last user message becomes the
 * turn's message; earlier messages are ignored, never run twice.
 */
import { invalidRequest, refuseNul } from "./openai-errors";

/** The longest message a turn takes (as POST /v1/sessions/:id/turns). */
export const MAX_MESSAGE_CHARS = 200_000;

export interface InputMessage {
  role?: string | undefined;
  content?: unknown;
}

/** A content value's text: a string as is, or the text of the parts whose type is listed, joined by newlines. */
export function contentText(content: unknown, partTypes: readonly string[]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((part: unknown) => {
      if (typeof part !== "object" || part === null) return [];
      const { type, text } = part as { type?: unknown; text?: unknown };
      return typeof type === "string" && partTypes.includes(type) && typeof text === "string" ? [text] : [];
    })
    .join("\n");
}

/** The text of the last `user` message; 400 when there is none, it has no text, or holds U+0000. */
export function lastUserText(messages: readonly InputMessage[], partTypes: readonly string[], param: string): string {
  const last = messages.findLast((m) => m.role === "user");
  if (!last)
    throw invalidRequest(
      `${param} must contain a user message (the new message of the turn)`,
      "missing_user_message",
      param,
    );
  const text = contentText(last.content, partTypes);
  if (text.trim() === "") throw invalidRequest("the last user message has no text", "empty_user_message", param);
  if (text.length > MAX_MESSAGE_CHARS)
    throw invalidRequest(`the user message is longer than ${MAX_MESSAGE_CHARS} characters`, "message_too_long", param);
  refuseNul(text, "the user message", param);
  return text;
}
