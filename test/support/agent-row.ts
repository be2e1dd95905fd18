/**
 * Test-only: the row of a plain agent on the offline demo model, for tests that need an agent
 * (and then sessions and turns) in a database; `overrides` sets what a test cares about.
 */
import type { AgentValues } from "@/db/queries/agents";
import type { AgentLimits } from "@/db/schema";

/** The limits of agentRow's agent; a test spreads them to change one. */
export const TEST_AGENT_LIMITS: AgentLimits = {
  tool_concurrency: 1,
  max_tool_calls: 50,
  turn_timeout: 300,
  tool_timeout: 60,
};

export function agentRow(id: string, overrides: Partial<AgentValues> = {}): AgentValues {
  return {
    id,
    name: id,
    instructions: "",
    model: { provider: "demo", model: "demo" },
    toolsAllow: null,
    toolsDeny: [],
    toolsAllowGroups: null,
    toolsDeferred: [],
    approvals: [],
    limits: { ...TEST_AGENT_LIMITS },
    metadata: {},
    skills: [],
    subagents: [],
    memory: false,
    source: "api",
    ...overrides,
  };
}
