/**
 * The body of POST /v1/responses: the fields Insika reads. Other Responses fields
 * (instructions, tools, temperature, store...) are accepted and ignored: the agent decides.
 * `conversation` is refused, so a client relying on it does not silently lose its history.
 */
import { z } from "zod";
import { invalidRequest, refuseNul } from "./openai-errors";
import { lastUserText, MAX_MESSAGE_CHARS } from "./user-message";

const inputItem = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.unknown().optional(),
});

export const createResponseRequest = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(inputItem).min(1)]),
  previous_response_id: z.string().min(1).nullish(),
  conversation: z.unknown().optional(),
  metadata: z.record(z.string(), z.string()).nullish(),
  stream: z.boolean().nullish(),
});

export type CreateResponseRequest = z.infer<typeof createResponseRequest>;

/** The turn's message: `input` as a string, else the last user message item's text. */
export function responsesUserMessage(body: CreateResponseRequest): string {
  if (body.conversation !== undefined && body.conversation !== null) {
    throw invalidRequest(
      "conversation is not supported: continue with previous_response_id",
      "unsupported_parameter",
      "conversation",
    );
  }
  if (typeof body.input !== "string") {
    const messages = body.input.filter((item) => item.type === undefined || item.type === "message");
    return lastUserText(messages, ["input_text", "text"], "input");
  }
  if (body.input.trim() === "") throw invalidRequest("input must not be empty", "empty_user_message", "input");
  if (body.input.length > MAX_MESSAGE_CHARS)
    throw invalidRequest(`input is longer than ${MAX_MESSAGE_CHARS} characters`, "message_too_long", "input");
  refuseNul(body.input, "input", "input");
  return body.input;
}
