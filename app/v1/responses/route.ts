// POST /v1/responses — an agent turn in OpenAI's Responses shape (streamed or not)
import { readBody, route, refuseMethods } from "@/lib/api/route";
import { openAIErrorResponse } from "@/lib/api/openai-compat/openai-errors";
import { createResponseRequest } from "@/lib/api/openai-compat/responses-request";
import { createResponse } from "@/lib/api/openai-compat/responses";
import { BODY_LIMITS } from "@/lib/api/body-limits";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  async (req, { db, principal }) => {
    const body = await readBody(req, createResponseRequest, BODY_LIMITS.conversation);
    return createResponse(db, principal, body);
  },
  { scopes: ["turns:run"], onError: openAIErrorResponse },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"], openAIErrorResponse);
