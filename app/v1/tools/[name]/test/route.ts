// POST /v1/tools/:name/test — run one call without a model; 200 with the bare call record whatever the outcome
import { z } from "zod";
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { CTX_KEYS } from "@/lib/tools/types";
import { testTool } from "@/lib/services/tools/test-tool";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const ctx = z.object(Object.fromEntries(CTX_KEYS.map((k) => [k, z.string().max(2000).optional()]))).strict();
const body = z.object({ arguments: z.unknown(), ctx: ctx.optional() }).strict();

export const POST = route<{ name: string }>(
  async (req, { db, params, principal }) => {
    const input = await readBody(req, body);
    return json(await testTool(db, principal, params.name, { arguments: input.arguments ?? {}, ctx: input.ctx }));
  },
  { scopes: ["tools:write"] },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
