/**
 * The TypeScript config file's vocabulary (`insika.config.ts`):
 *
 *   export default [defineAgent({ id: "support", model: {...}, dataTools: [dataTool({...})] })];
 *
 * These helpers only shape and type the values; validation happens when the
 * file is applied (at start and by `insika apply`), with the same rules as the API.
 */
import type { AgentInput } from "@/lib/agents/agent-input";
import type { DataToolDefinition } from "@/lib/tools/types";

/** A data tool as written by hand: parameters may be flat sugar, defaults may be omitted. */
export type DataToolInput = Omit<Partial<DataToolDefinition>, "parameters" | "request"> & {
  name: string;
  description: string;
  parameters?: DataToolDefinition["parameters"] | string;
  request: Omit<Partial<DataToolDefinition["request"]>, "method" | "url" | "body"> & {
    method: string;
    url: string;
    body?: unknown;
  };
};

export interface AgentConfig extends AgentInput {
  id: string;
  dataTools?: DataToolInput[];
}

/** Declares a data tool for an agent in the config file. */
export function dataTool(tool: DataToolInput): DataToolInput {
  return tool;
}

/** Declares an agent (and the data tools it brings) in the config file. */
export function defineAgent(agent: AgentConfig): AgentConfig {
  return agent;
}
