// GET, POST, DELETE /v1/agents/:id/mcp — the agent as an MCP server (Streamable HTTP)
import { route, refuseMethods } from "@/lib/api/route";
import { handleAgentMcpRequest } from "@/lib/api/agent-mcp/handle-agent-mcp-request";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { id: string };

// POST carries JSON-RPC messages, GET opens the session's SSE stream, DELETE ends the session.
const serve = route<Params>(
  async (req, { db, env, params, principal }) => handleAgentMcpRequest(req, { db, env, principal, agentId: params.id }),
  { scopes: ["turns:run"] },
);

export const GET = serve;
export const POST = serve;
export const DELETE = serve;

export const { PUT, PATCH } = refuseMethods(["GET", "POST", "DELETE"]);
