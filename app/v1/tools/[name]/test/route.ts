// POST /v1/tools/:name/test — run one call without a model; 200 with the bare call record whatever the outcome
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { testTool, testToolBody } from "@/lib/services/tools/test-tool";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route<{ name: string }>(
  async (req, { db, params, principal }) => {
    const input = await readBody(req, testToolBody);
    return json(await testTool(db, principal, params.name, { arguments: input.arguments ?? {}, ctx: input.ctx }));
  },
  { scopes: ["tools:write"] },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
