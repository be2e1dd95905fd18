import { errorMessage } from "@/lib/errors";
/**
 * The MCP session cache: one handshake per (server URL, credentials), kept
 * for every later call, so a tool call costs one POST instead of three. A
 * stateless server (no `Mcp-Session-Id`) is cached too: it needs no session,
 * but the negotiated protocol version is still sent with every call.
 */

/** What a completed handshake left us with. */
export interface McpSession {
  /** The server's `Mcp-Session-Id`; null for a stateless server. */
  sessionId: string | null;
  /** The protocol version the server chose in `initialize`. */
  protocolVersion: string;
}

/** A handshake attempt: the session, or why it failed (the model-readable error). */
export type OpenResult = { ok: true; session: McpSession } | { ok: false; error: string };

/** Bounds the cache: a process talks to few servers, but credentials may rotate. */
export const MAX_MCP_SESSIONS = 256;

/**
 * Sessions by key (see sessionKeyOf in lib/http-tools/execute-mcp-tool.ts). Concurrent callers
 * that find no session share one in-flight handshake; a caller that sees that
 * shared handshake fail runs its own (the first caller may have been
 * cancelled, which says nothing about the server). Least recently used
 * entries are evicted beyond `maxEntries`. In memory, per process: a session
 * lost with the process is simply opened again.
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly pending = new Map<string, Promise<OpenResult>>();

  constructor(private readonly maxEntries = MAX_MCP_SESSIONS) {}

  /** The cached session for `key` (refreshing its recency), or undefined. */
  get(key: string): McpSession | undefined {
    const s = this.sessions.get(key);
    if (s) {
      this.sessions.delete(key);
      this.sessions.set(key, s);
    }
    return s;
  }

  /** The cached session, else the result of `open` (shared with concurrent callers), cached on success. */
  async getOrOpen(key: string, open: () => Promise<OpenResult>): Promise<OpenResult> {
    const cached = this.get(key);
    if (cached) return { ok: true, session: cached };
    const inFlight = this.pending.get(key);
    if (inFlight) {
      const shared = await inFlight;
      if (shared.ok) return shared;
    }
    return this.run(key, open);
  }

  /** Drops `session` for `key` if it is still the cached one (a concurrent re-open is kept). */
  forget(key: string, session: McpSession): void {
    if (this.sessions.get(key) === session) this.sessions.delete(key);
  }

  /** How many sessions are cached. */
  get size(): number {
    return this.sessions.size;
  }

  /** Every cached session id, for shutdown or tests. */
  entries(): [string, McpSession][] {
    return [...this.sessions.entries()];
  }

  private async run(key: string, open: () => Promise<OpenResult>): Promise<OpenResult> {
    const attempt = open().catch((e: unknown): OpenResult => ({
      ok: false,
      error: `MCP handshake failed: ${errorMessage(e)}`,
    }));
    this.pending.set(key, attempt);
    try {
      const result = await attempt;
      if (result.ok) {
        this.sessions.set(key, result.session);
        while (this.sessions.size > this.maxEntries) {
          const oldest = this.sessions.keys().next().value;
          if (oldest === undefined) break;
          this.sessions.delete(oldest);
        }
      }
      return result;
    } finally {
      if (this.pending.get(key) === attempt) this.pending.delete(key);
    }
  }
}
