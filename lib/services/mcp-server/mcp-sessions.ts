/**
 * MCP sessions in the database: an agent's MCP session is an Insika session (`mcp_…`) of
 * that agent, created by `initialize` as the key sees sessions (its agent limits, its tenant
 * pin: `{{ctx.tenant}}` comes from the key). Any process can check a session id against it,
 * which is what lets a session be served again by a process that did not start it.
 */
import type { Db } from "@/db/client";
import { deleteEmptySession, getSession, insertSession } from "@/db/queries/sessions";
import { getSetting, setSetting } from "@/db/queries/settings";
import type { SessionRow } from "@/db/schema";
import { maySeeSession, type Principal } from "@/lib/access/principal";
import { assertMayUseAgent, sessionTenantFor } from "@/lib/services/sessions/session-access";
import { isMcpSessionId, newMcpSessionId } from "./mcp-session-id";

/** Creates the session of a new MCP session of `agentId` for `principal`; returns its id. */
export async function createMcpSession(db: Db, principal: Principal, agentId: string): Promise<string> {
  assertMayUseAgent(principal, agentId);
  const row = await insertSession(db, { id: newMcpSessionId(), agentId, tenant: sessionTenantFor(principal, null) });
  return row.id;
}

/**
 * Deletes the session of an `initialize` the transport refused: its client never learned the
 * id, and nothing ran in it. Throws when no such row was deleted, so that a row left behind is
 * never silent.
 */
export async function dropRefusedMcpSession(db: Db, id: string): Promise<void> {
  if (!(await deleteEmptySession(db, id)))
    throw new Error(`MCP session '${id}' was not deleted (absent, or it has turns)`);
}

/** The MCP session `id` of `agentId`, if `principal` may use it; undefined otherwise (never revealed). */
export async function findMcpSession(
  db: Db,
  principal: Principal,
  agentId: string,
  id: string,
): Promise<SessionRow | undefined> {
  if (!isMcpSessionId(id)) return undefined;
  const session = await getSession(db, id);
  if (!session || session.agentId !== agentId || !maySeeSession(principal, session)) return undefined;
  if ((await getSetting(db, endedKey(id))) !== undefined) return undefined;
  return session;
}

const endedKey = (id: string) => `mcp_session_ended:${id}`;

/**
 * Ends an MCP session (its client sent DELETE): every process then answers its id 404, as
 * the MCP spec asks; the Insika session and its trace stay. Recorded in the database, so a
 * process that did not serve the DELETE does not revive it.
 */
export async function endMcpSession(db: Db, id: string): Promise<void> {
  await setSetting(db, endedKey(id), String(Date.now()));
}
