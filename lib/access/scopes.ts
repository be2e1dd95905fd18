/**
 * What a key may do (issue: access control). A route declares the scopes that let a caller
 * in; `admin` lets a caller in everywhere. The list is closed: an unknown scope is refused
 * when a key is created, never ignored.
 */
export const SCOPES = ["admin", "tools:write", "agents:write", "approvals:decide", "traces:read", "turns:run"] as const;

export type Scope = (typeof SCOPES)[number];

/** One line per scope, for the CLI, the Studio's Keys page and docs. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  admin: "everything, including keys and the audit log",
  "tools:write": "write tools: PUT/DELETE tools, the manifest, MCP import, try-it calls",
  "agents:write": "write agents and skills, apply the config file",
  "approvals:decide": "list and decide approvals",
  "traces:read": "read sessions, traces, the catalog, agents and doctor",
  "turns:run": "create sessions and run turns (also OpenAI-compatible) for the key's agents, and read their history",
};

/** Reading the catalog (tools, agents, skills): whoever reads traces or writes tools or agents. */
export const READ_CATALOG: readonly Scope[] = ["traces:read", "tools:write", "agents:write"];
/** Reading sessions and traces: traces:read everywhere; turns:run for its own agents and tenant. */
export const READ_SESSIONS: readonly Scope[] = ["traces:read", "turns:run"];
/** Reading approvals: who decides them, and who reads traces. */
export const READ_APPROVALS: readonly Scope[] = ["approvals:decide", "traces:read"];
