// POST /v1/mcp/import — adopt an HTTP MCP server's tools as data tools of group mcp:<name>
import { json, readJson, route } from "@/lib/api/route";
import { processSecrets } from "@/lib/secrets/secret-source";
import { getPosture } from "@/lib/services/tools/egress-posture";
import { importMcpServer } from "@/lib/services/mcp/import-mcp-server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(async (req, { db }) =>
  json(await importMcpServer(db, await readJson(req), { posture: getPosture(), secrets: processSecrets })),
);
