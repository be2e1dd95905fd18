/**
 * The agent definition as every write path accepts it (PUT /v1/agents/:id, the
 * config file, the seed). Types derive from this schema.
 */
import { z } from "zod";
import { checkUrlForm } from "@/lib/egress/url-form";
import { MAX_TOOL_CALLS_PER_STEP } from "@/lib/engine/turn-limits";

const toolName = z.string().regex(/^[a-z][a-z0-9_]*$/, "tool names match /^[a-z][a-z0-9_]*$/");
const secretName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a secret name (letters, digits, _)");

/**
 * A provider endpoint, judged by the egress guard's own form rules (lib/egress checkUrlForm),
 * so what saves is what the guard will look at per call (where INSIKA_PROVIDER_HOSTS decides).
 */
const baseUrl = z.string().superRefine((value, ctx) => {
  const block = checkUrlForm(value);
  if (block === null) return;
  const message =
    block.rule === "scheme" || block.rule === "invalid-url"
      ? "base_url must be an absolute http or https URL"
      : `base_url is refused by the egress guard (${block.rule}): ${block.reason}`;
  ctx.addIssue({ code: "custom", message });
});

export const PROVIDERS = ["openai-compatible", "openai", "anthropic", "demo", "scripted"] as const;

export const DEFAULT_LIMITS = {
  tool_concurrency: 1,
  max_tool_calls: 50,
  turn_timeout: 300,
  tool_timeout: 60,
  max_subagent_turns: 20,
};

/**
 * The largest value each limit may take (docs/api.md, "Agents"). A bigger number is a
 * configuration that only ever hides a runaway: a turn that loops for a day, or a fan-out
 * of subagents whose cost nobody meant to pay.
 */
export const LIMIT_MAXIMA = {
  tool_concurrency: 64,
  // The engine refuses a step asking for more calls than this (MAX_TOOL_CALLS_PER_STEP): same number.
  max_tool_calls: MAX_TOOL_CALLS_PER_STEP,
  turn_timeout: 3_600,
  tool_timeout: 600,
  max_subagent_turns: 200,
} as const;

const atMost = (name: keyof typeof LIMIT_MAXIMA) => ({ message: `${name} must be at most ${LIMIT_MAXIMA[name]}` });

export const agentInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    instructions: z.string().max(100_000).optional(),
    model: z
      .object({
        provider: z.enum(PROVIDERS),
        model: z.string().min(1).max(200),
        base_url: baseUrl.optional(),
        api_key_secret: secretName.optional(),
        /** Strict mode: tool schemas compiled to the provider's dialect when sent (docs/api.md, Agents). */
        strict: z.boolean().optional(),
      })
      .strict()
      .refine((m) => m.provider !== "openai-compatible" || m.base_url, {
        message: "base_url is required for provider openai-compatible",
        path: ["base_url"],
      }),
    tools_allow: z.array(toolName).optional().nullable(),
    tools_deny: z.array(toolName).optional(),
    tools_allow_groups: z.array(z.string().trim().min(1)).optional().nullable(),
    tools_deferred: z.array(toolName).optional(),
    approvals: z.array(toolName).optional(),
    limits: z
      .object({
        tool_concurrency: z.number().int().min(1).max(LIMIT_MAXIMA.tool_concurrency, atMost("tool_concurrency")),
        max_tool_calls: z.number().int().min(1).max(LIMIT_MAXIMA.max_tool_calls, atMost("max_tool_calls")),
        turn_timeout: z.number().positive().max(LIMIT_MAXIMA.turn_timeout, atMost("turn_timeout")),
        tool_timeout: z.number().positive().max(LIMIT_MAXIMA.tool_timeout, atMost("tool_timeout")),
        /** Child turns (spawn_subagent(s)) one turn and all its descendants may start; 0 = none. */
        max_subagent_turns: z.number().int().min(0).max(LIMIT_MAXIMA.max_subagent_turns, atMost("max_subagent_turns")),
      })
      .strict()
      .partial()
      .optional(),
    metadata: z
      .object({ store_id: z.string().max(200).optional() })
      .catchall(z.string().max(2000))
      .optional(),
    skills: z.array(z.string().min(1)).optional(),
    subagents: z.array(z.string().min(1)).optional(),
    memory: z.boolean().optional(),
  })
  .strict();

export type AgentInput = z.infer<typeof agentInput>;

/** The id rule for agents (used in URLs and as the OpenAI `model`). */
export const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
