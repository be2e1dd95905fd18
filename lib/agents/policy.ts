/**
 * The tool policy: which catalog tools a turn of an agent is offered. Deny
 * wins; otherwise the agent sees tools_allow ∪ tools of tools_allow_groups,
 * or every tool when both are absent (null), and none for `[]`. Deferred tools
 * are held back from the direct offer (the model finds them with tool_search).
 */

export interface PolicyTool {
  name: string;
  group: string | null;
}

export interface AgentPolicy {
  tools_allow: string[] | null;
  tools_deny: string[];
  tools_allow_groups: string[] | null;
  tools_deferred: string[];
}

export type Exposure =
  { status: "offered" | "deferred"; reason: string } | { status: "denied" | "not_allowed"; reason: string };

export interface PolicyResult {
  offered: string[];
  deferred: string[];
  denied: string[];
  /** Why each catalog tool is (not) offered, for the Studio. */
  exposure: Map<string, Exposure>;
}

/** Applies the policy to the catalog's usable tools (in catalog order). */
export function applyPolicy(policy: AgentPolicy, tools: Iterable<PolicyTool>): PolicyResult {
  const allowNames = policy.tools_allow === null ? null : new Set(policy.tools_allow);
  const allowGroups = policy.tools_allow_groups === null ? null : new Set(policy.tools_allow_groups);
  const deny = new Set(policy.tools_deny);
  const deferred = new Set(policy.tools_deferred);
  const result: PolicyResult = { offered: [], deferred: [], denied: [], exposure: new Map() };

  for (const tool of tools) {
    const allowedBecause = allowReason(tool, allowNames, allowGroups);
    let exposure: Exposure;
    if (deny.has(tool.name)) {
      exposure = { status: "denied", reason: "listed in tools_deny (deny wins)" };
      result.denied.push(tool.name);
    } else if (allowedBecause === null) {
      exposure = { status: "not_allowed", reason: "not in tools_allow nor in an allowed group" };
    } else if (deferred.has(tool.name)) {
      exposure = { status: "deferred", reason: `${allowedBecause}; deferred (found through tool_search)` };
      result.deferred.push(tool.name);
    } else {
      exposure = { status: "offered", reason: allowedBecause };
      result.offered.push(tool.name);
    }
    result.exposure.set(tool.name, exposure);
  }
  return result;
}

function allowReason(tool: PolicyTool, names: Set<string> | null, groups: Set<string> | null): string | null {
  if (names === null && groups === null) return "all tools (no allowlist)";
  if (names?.has(tool.name)) return "allowed by name";
  if (tool.group !== null && groups?.has(tool.group)) return `allowed by group ${tool.group}`;
  return null;
}
