/** Pure edits of an agent's tool policy, as the tool matrix makes them. */
import type { StudioPolicy } from "@/lib/services/agents/set-agent-policy";

export type ListKey = "tools_allow" | "tools_deny" | "tools_deferred" | "approvals" | "tools_allow_groups";

/** Adds or removes `name` in one list; a null list (absent) becomes [] when something is added. */
export function toggle(policy: StudioPolicy, key: ListKey, name: string, on: boolean): StudioPolicy {
  const current = policy[key] ?? [];
  const next = on ? (current.includes(name) ? current : [...current, name]) : current.filter((n) => n !== name);
  return { ...policy, [key]: next };
}

/** "All tools" = no allowlist at all (both lists absent); turning it off starts from an empty allowlist. */
export function setAllTools(policy: StudioPolicy, all: boolean): StudioPolicy {
  if (all) return { ...policy, tools_allow: null, tools_allow_groups: null };
  return { ...policy, tools_allow: policy.tools_allow ?? [], tools_allow_groups: policy.tools_allow_groups ?? [] };
}

export const allTools = (p: StudioPolicy) => p.tools_allow === null && p.tools_allow_groups === null;
