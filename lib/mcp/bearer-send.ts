/**
 * An MCP `send` that authenticates with a bearer token from `tokens`: every message carries
 * it as a credential (masked in the trace, never stored), and a 401 answer fetches a new
 * token and sends the message once more.
 */
import type { McpSend } from "@/lib/http-tools";

export interface BearerTokens {
  get(): Promise<string>;
  refresh(): Promise<string>;
}

/** Wraps `send`; a token that cannot be had is the call's error (model-readable, no secret in it). */
export function bearerSend(send: McpSend, tokens: BearerTokens): McpSend {
  return async (message) => {
    const attempt = async (token: string) =>
      send({ ...message, credentials: { ...message.credentials, Authorization: `Bearer ${token}` } });
    let token: string;
    try {
      token = await tokens.get();
    } catch (error) {
      return {
        ok: false,
        error: `could not get an OAuth access token: ${(error as Error).message}`,
        blocked: false,
        status: null,
      };
    }
    const first = await attempt(token);
    if (!first.ok || first.status !== 401) return first;
    try {
      token = await tokens.refresh();
    } catch (error) {
      return {
        ok: false,
        error: `the MCP server refused the access token and a new one could not be had: ${(error as Error).message}`,
        blocked: false,
        status: 401,
      };
    }
    return attempt(token);
  };
}
