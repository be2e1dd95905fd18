"use server";
// Server actions of the MCP page: each checks the Studio session, then calls one service.
import { assertScope } from "@/lib/access/principal";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { processSecrets } from "@/lib/secrets/secret-source";
import { getPosture } from "@/lib/services/tools/egress-posture";
import { importMcpServer } from "@/lib/services/mcp/import-mcp-server";
import { asResult, studioDb } from "../action-result";

/**
 * Imports (or re-imports) an HTTP MCP server: `{name, url, headers?, auth?}` as POST /v1/mcp/import takes it.
 * importMcpServer checks `body` before anything else (parseMcpImportBody: the route's rules, a 422 naming the problem).
 */
export async function importMcpAction(body: {
  name: string;
  url: string;
  headers?: Record<string, string>;
  auth?: { type: "oauth_client_credentials"; client_id: string; client_secret: string; scope?: string };
}) {
  const actor = await requireStudioSession();
  return asResult(() => {
    assertScope(actor, ["tools:write"], "importing an MCP server");
    return importMcpServer(studioDb(), actor, body, {
      posture: getPosture(),
      secrets: processSecrets,
      source: "studio",
    });
  });
}
