/**
 * Who is calling: the key a request (or a Studio session, or the CLI) acts as. Everything an
 * access decision needs is here, so a decision never reads the database again.
 */
import { DomainError } from "@/lib/errors";
import type { Scope } from "./scopes";

export type ActorSource = "api" | "studio" | "cli" | "config";

export interface Principal {
  keyId: string;
  keyName: string;
  scopes: readonly Scope[];
  /** The agents the key may use; null: every agent. */
  agents: readonly string[] | null;
  /** The tenant the key is pinned to; null: not pinned. */
  tenant: string | null;
  /** Turns per minute this key may start; null: unlimited. */
  turnsPerMinute: number | null;
  source: ActorSource;
}

/** True when the principal holds one of `scopes` (admin holds every scope). */
export function hasAnyScope(principal: Principal, scopes: readonly Scope[]): boolean {
  return principal.scopes.includes("admin") || scopes.some((s) => principal.scopes.includes(s));
}

/** True when the principal may use this agent (its agent list, if it has one, names it). */
export function mayUseAgent(principal: Principal, agentId: string): boolean {
  return principal.agents === null || principal.agents.includes(agentId);
}

/** True when the principal may see a session of this agent and tenant. */
export function maySeeSession(principal: Principal, session: { agentId: string; tenant: string | null }): boolean {
  if (hasAnyScope(principal, ["traces:read"])) return principal.tenant === null || session.tenant === principal.tenant;
  if (!principal.scopes.includes("turns:run")) return false;
  if (!mayUseAgent(principal, session.agentId)) return false;
  return principal.tenant === null || session.tenant === principal.tenant;
}

/**
 * True when the principal may see (and, holding approvals:decide, decide) an approval asked in a
 * session of this tenant: it holds `approvals:decide` or `traces:read` (admin holds both), and a
 * pinned key only its own tenant's. (An agent list is for turns:run keys only, see keys.)
 */
export function maySeeApproval(principal: Principal, session: { tenant: string | null }): boolean {
  if (!hasAnyScope(principal, ["approvals:decide", "traces:read"])) return false;
  return principal.tenant === null || session.tenant === principal.tenant;
}

/**
 * Throws `forbidden` for a key pinned to a tenant: `what` spans every tenant (the keys, the
 * audit log, the metrics), so a pinned key, admin too, may not reach it.
 */
export function assertUnpinned(principal: Principal, what: string): void {
  if (principal.tenant === null) return;
  throw new DomainError(
    "forbidden",
    `this key is pinned to tenant '${principal.tenant}'; ${what} spans every tenant, so it needs a key without a tenant`,
  );
}

/** The principal of the operator's own tools (CLI, config file): an admin with no key. */
export function operatorPrincipal(source: ActorSource): Principal {
  return {
    keyId: "operator",
    keyName: source,
    scopes: ["admin"],
    agents: null,
    tenant: null,
    turnsPerMinute: null,
    source,
  };
}

/** Throws `forbidden` naming what needs which scope unless the principal holds one of `scopes`. */
export function assertScope(principal: Principal, scopes: readonly Scope[], what: string): void {
  if (hasAnyScope(principal, scopes)) return;
  throw new DomainError(
    "forbidden",
    `${what} needs scope ${scopes.join(" or ")} (this key has ${principal.scopes.join(", ") || "no scope"})`,
  );
}
