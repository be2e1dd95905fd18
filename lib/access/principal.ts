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
