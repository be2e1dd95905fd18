/**
 * The body of POST /v1/chat/completions: the fields Insika reads. Other Chat Completions
 * fields (temperature, tools, n...) are accepted and ignored: the agent decides its model,
 * its tools and its policy.
 */
import { z } from "zod";
import { lastUserText } from "./user-message";

const message = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
});

export const chatCompletionRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

export type ChatCompletionRequest = z.infer<typeof chatCompletionRequest>;

/** The turn's message: the last user message's text (string content or its `text` parts). */
export const chatUserMessage = (body: ChatCompletionRequest) => lastUserText(body.messages, ["text"], "messages");
