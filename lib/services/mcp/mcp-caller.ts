/**
 * This process's MCP caller: one session cache shared by every turn and every
 * "try it" call, so the handshake with a server happens once per process, not
 * once per call. Kept on globalThis because Next.js may load this module once
 * per route bundle; a second cache would only cost a second handshake, but
 * one is what DESIGN D7 promises. A tool of an instance imported with OAuth client
 * credentials sends a bearer token (mcp-oauth-tokens.ts), refreshed on 401.
 */
import { getDb } from "@/db/client";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import type { McpCaller } from "@/lib/http-tools";
import { createMcpCaller, McpSessions } from "@/lib/mcp";
import { bearerSend } from "@/lib/mcp/bearer-send";
import { processSecrets } from "@/lib/secrets/secret-source";
import { getPosture } from "@/lib/services/tools/egress-posture";
import { readMcpAuth } from "./mcp-import-auth";
import { oauthTokensFor } from "./mcp-oauth-tokens";

const KEY = Symbol.for("insika.mcp.caller");

type Holder = { [KEY]?: { sessions: McpSessions; caller: McpCaller } };

/** The process-wide MCP caller (for lib/http-tools' `deps.mcp`). */
export function getMcpCaller(): McpCaller {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const sessions = new McpSessions();
    holder[KEY] = { sessions, caller: withOAuth(createMcpCaller(sessions)) };
  }
  return holder[KEY].caller;
}

/** The instance's stored OAuth auth; none when the database cannot be read (the server's 401 then says so). */
async function authOf(instance: string) {
  try {
    return await readMcpAuth(getDb(getEnv()), instance);
  } catch (error) {
    log.error("reading an MCP instance's auth failed", { instance, ...describeError(error) });
    return null;
  }
}

/** Adds the instance's OAuth bearer token to every message of its tools' calls. */
function withOAuth(base: McpCaller): McpCaller {
  return async (tool, args, ctx, send, info) => {
    const instance = tool.group?.startsWith("mcp:") ? tool.group.slice(4) : undefined;
    const auth = instance ? await authOf(instance) : null;
    if (!auth) return base(tool, args, ctx, send, info);
    const clientSecret = processSecrets.read(auth.client_secret_name);
    if (clientSecret === undefined) {
      return {
        ok: false,
        error: `the OAuth client secret '${auth.client_secret_name}' of MCP server '${instance}' is not provisioned`,
      };
    }
    const tokens = oauthTokensFor(
      {
        serverUrl: tool.request.url,
        clientId: auth.client_id,
        clientSecret,
        ...(auth.scope ? { scope: auth.scope } : {}),
      },
      getPosture(),
    );
    return base(tool, args, ctx, bearerSend(send, tokens), info);
  };
}
