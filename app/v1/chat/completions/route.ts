// POST /v1/chat/completions — an agent turn in OpenAI's Chat Completions shape (streamed or not)
import { readBody, route, refuseMethods } from "@/lib/api/route";
import { chatCompletionRequest } from "@/lib/api/openai-compat/chat-request";
import { createChatCompletion, SESSION_HEADER } from "@/lib/api/openai-compat/chat-completions";
import { openAIErrorResponse } from "@/lib/api/openai-compat/openai-errors";
import { BODY_LIMITS } from "@/lib/api/body-limits";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  async (req, { db, principal }) => {
    const body = await readBody(req, chatCompletionRequest, BODY_LIMITS.conversation);
    return createChatCompletion(db, principal, body, req.headers.get(SESSION_HEADER));
  },
  { scopes: ["turns:run"], onError: openAIErrorResponse },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"], openAIErrorResponse);
