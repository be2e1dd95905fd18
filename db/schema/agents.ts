import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, json, updatedAt } from "./columns";

export interface AgentModelConfig {
  provider: "openai-compatible" | "openai" | "anthropic" | "demo" | "scripted";
  model: string;
  base_url?: string;
  api_key_secret?: string;
  /** Strict mode: tool schemas compiled to the provider's dialect when sent. */
  strict?: boolean;
}

export interface AgentLimits {
  tool_concurrency: number;
  max_tool_calls: number;
  turn_timeout: number;
  tool_timeout: number;
  /** Child turns a turn and its descendants may start; absent on rows saved before it existed (the default applies). */
  max_subagent_turns?: number;
}

/**
 * An agent: instructions, model and the tool policy. `null` for tools_allow and
 * tools_allow_groups means "absent" (all tools when both are absent); `[]` means none.
 * Deleting an agent archives it (`archived_at` set): the row stays so that its sessions,
 * turns, traces and memories keep their agent; an archived agent is out of every list and
 * starts nothing, and a PUT of the same id brings it back.
 */
export const agents = sqliteTable("agents", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  instructions: text("instructions").notNull(),
  model: json<AgentModelConfig>("model").notNull(),
  toolsAllow: json<string[] | null>("tools_allow"),
  toolsDeny: json<string[]>("tools_deny").notNull(),
  toolsAllowGroups: json<string[] | null>("tools_allow_groups"),
  toolsDeferred: json<string[]>("tools_deferred").notNull(),
  approvals: json<string[]>("approvals").notNull(),
  limits: json<AgentLimits>("limits").notNull(),
  metadata: json<Record<string, string>>("metadata").notNull(),
  skills: json<string[]>("skills").notNull(),
  subagents: json<string[]>("subagents").notNull(),
  memory: integer("memory", { mode: "boolean" }).notNull(),
  source: text("source").notNull(),
  archivedAt: integer("archived_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type AgentRow = typeof agents.$inferSelect;
