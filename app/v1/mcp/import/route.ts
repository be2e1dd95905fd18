// POST /v1/mcp/import — adopt an HTTP MCP server's tools as data tools of group mcp:<name>
import { json, readJson, route, refuseMethods } from "@/lib/api/route";
import { processSecrets } from "@/lib/secrets/secret-source";
import { getPosture } from "@/lib/services/tools/egress-posture";
import { importMcpServer } from "@/lib/services/mcp/import-mcp-server";
import { dialectProblemsOfTools } from "@/lib/services/agents/dialect-problems";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  async (req, { db, principal }) => {
    const result = await importMcpServer(db, principal, await readJson(req), {
      posture: getPosture(),
      secrets: processSecrets,
    });
    return json({
      ...result,
      dialect_problems: await dialectProblemsOfTools(db, result.updated.concat(result.created)),
    });
  },
  { scopes: ["tools:write"] },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
