/**
 * What the model is told about each system tool (DESIGN D13). They are offered only when
 * their feature is configured for the agent; the services layer decides which.
 */
import type { ModelToolSpec } from "@/lib/engine/ports";
import { MAX_SUBAGENTS_PER_CALL } from "./spawn-subagents";

export const TOOL_SEARCH_SPEC: ModelToolSpec = {
  name: "tool_search",
  description:
    "Search the available tools (listed in your instructions) by what they do. The best matches are returned with their descriptions and become callable for the rest of this turn.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string", description: "Words describing the tool you need, or its name" },
      limit: { type: "integer", minimum: 1, maximum: 20, description: "How many tools to enable (default 5)" },
    },
    required: ["query"],
    additionalProperties: false,
  },
};

export const LOAD_SKILL_SPEC: ModelToolSpec = {
  name: "load_skill",
  description: "Load one of your skills (listed in your instructions) and get its full instructions.",
  parameters: {
    type: "object",
    properties: { name: { type: "string", description: "The skill's name" } },
    required: ["name"],
    additionalProperties: false,
  },
};

export const REMEMBER_SPEC: ModelToolSpec = {
  name: "remember",
  description: "Remember a short fact for later conversations with this user (shown back to you in later turns).",
  parameters: {
    type: "object",
    properties: { text: { type: "string", description: "The fact, in one or two sentences" } },
    required: ["text"],
    additionalProperties: false,
  },
};

/** spawn_subagent and spawn_subagents, naming the agents this agent may delegate to. */
export function spawnSpecs(agents: readonly string[]): ModelToolSpec[] {
  const agent = { type: "string", enum: [...agents], description: "Which agent runs the task" };
  const message = { type: "string", description: "The task, as a message to that agent" };
  return [
    {
      name: "spawn_subagent",
      description: "Delegate a task to another agent and get its answer.",
      parameters: {
        type: "object",
        properties: { agent, message },
        required: ["agent", "message"],
        additionalProperties: false,
      },
    },
    {
      name: "spawn_subagents",
      description: `Delegate several tasks at once (at most ${MAX_SUBAGENTS_PER_CALL}); they run in parallel and every answer comes back.`,
      parameters: {
        type: "object",
        properties: {
          tasks: {
            type: "array",
            minItems: 1,
            items: {
              type: "object",
              properties: { agent, message },
              required: ["agent", "message"],
              additionalProperties: false,
            },
          },
        },
        required: ["tasks"],
        additionalProperties: false,
      },
    },
  ];
}
