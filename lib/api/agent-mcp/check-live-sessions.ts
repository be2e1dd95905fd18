/**
 * What the live MCP sessions' timer does each second: close a session nobody used for a
 * while, or one a key that no longer works has used (its streams end with it, so none
 * outlives a revocation or an expiry), and tell the others' clients when their agent's
 * offer of tools or prompts moved. A closed session stays valid in the database: a request
 * with a key that works revives it.
 */
import { log } from "@/lib/log";
import { keyLapse } from "@/lib/services/keys/api-keys";
import { agentMcpPromptsFingerprint, agentMcpToolsFingerprint } from "@/lib/services/mcp-server/agent-mcp-offer";
import type { LiveSession } from "./live-mcp-sessions";

/** A session nobody used for this long is closed here (a later request revives it). */
export const IDLE_CLOSE_MS = 30 * 60_000;

type Memo = Map<string, Promise<string | undefined>>;

/** `make()` once per `key` in one check: many sessions share an agent, and a key. */
function once(memo: Memo, key: string, make: () => Promise<string | undefined>): Promise<string | undefined> {
  let value = memo.get(key);
  if (!value) memo.set(key, (value = make()));
  return value;
}

/** Checks each of `sessions`; `close` forgets one here. */
export async function checkLiveSessions(
  sessions: readonly LiveSession[],
  close: (id: string) => void,
  now: number,
): Promise<void> {
  // What an agent offers does not depend on the session: one fingerprint per agent per check.
  const offers: Memo = new Map();
  const promptSets: Memo = new Map();
  const keyLapses: Memo = new Map();
  for (const live of sessions) {
    if (now - live.lastUsed > IDLE_CLOSE_MS) {
      close(live.id);
      continue;
    }
    const lapsed = await firstLapsedKey(live, (key) => once(keyLapses, key, () => keyLapse(live.db, key, now)));
    if (lapsed) {
      close(live.id);
      log.info("closed an MCP session here: a key that used it no longer works", {
        session_id: live.id,
        key_id: lapsed.key,
        reason: lapsed.reason,
      });
      continue;
    }
    const offer = await once(offers, live.agentId, () => agentMcpToolsFingerprint(live.db, live.agentId, live.id));
    if (offer === undefined) {
      close(live.id); // the agent was deleted, or the session
      continue;
    }
    if (offer !== live.offer) {
      live.offer = offer;
      await live.server.sendToolListChanged().catch(() => undefined);
    }
    const prompts = await once(promptSets, live.agentId, () => agentMcpPromptsFingerprint(live.db, live.agentId));
    if (live.prompts === undefined) live.prompts = prompts;
    else if (prompts !== live.prompts) {
      live.prompts = prompts;
      await live.server.sendPromptListChanged().catch(() => undefined);
    }
  }
}

async function firstLapsedKey(
  live: LiveSession,
  lapseOf: (key: string) => Promise<string | undefined>,
): Promise<{ key: string; reason: string } | undefined> {
  for (const key of live.keys) {
    const reason = await lapseOf(key);
    if (reason !== undefined) return { key, reason };
  }
  return undefined;
}
