/**
 * The shape of a data tool once it has been validated and normalized.
 *
 * This is what is stored (as JSON) in the `tools` table and what every other
 * module reads. Write paths accept a looser input (flat-sugar parameters,
 * omitted defaults); `validateToolDefinition` turns that into this.
 */

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const EXTRACT_KINDS = ["body_raw", "json_path", "status"] as const;
export type ExtractKind = (typeof EXTRACT_KINDS)[number];

/** The closed set of turn-context keys a `{{ctx.*}}` placeholder may name. */
export const CTX_KEYS = ["chat_id", "store_id", "agent_id", "tenant"] as const;
export type CtxKey = (typeof CTX_KEYS)[number];
export type TurnContext = Partial<Record<CtxKey, string>>;

/** A JSON Schema node restricted to the safe subset (see safe-schema.ts). */
export type JsonSchema = {
  type: "object" | "array" | "string" | "number" | "integer" | "boolean";
  [keyword: string]: unknown;
};

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ToolRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  /** JSON body template (a JSON value whose strings may hold placeholders), or absent. */
  body?: JsonValue;
  /** "http" (default) or "mcp": an MCP tool posts a JSON-RPC tools/call (DESIGN D7). */
  protocol?: "http" | "mcp";
  /** For protocol "mcp": the tool's name on the server (before normalization). */
  mcp_tool?: string;
}

/**
 * What a halted turn publishes when the model wrote no lead-in: exactly one of
 * a literal `text` or a `json_path` into the response body. The absent member
 * is typed `?: undefined` so readers can test `say.text !== undefined` without
 * an `in` check.
 */
export type SayRule = { text: string; json_path?: undefined } | { json_path: string; text?: undefined };

/**
 * How the response body is shaped for the model. `path` exists only for
 * `json_path` (typed `?: undefined` elsewhere so `response.path` stays readable).
 */
export type ToolResponse =
  { extract: "body_raw" | "status"; path?: undefined } | { extract: "json_path"; path: string };

export interface HaltWhen {
  json_path: string;
  /** Compared as strings against the value found at json_path. */
  equals: string[];
  say?: SayRule;
}

export interface DataToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
  request: ToolRequest;
  response: ToolResponse;
  secret_headers: string[];
  side_effect: boolean;
  /** Seconds; bounds the whole call, redirects included. */
  timeout: number;
  group: string | null;
  tags: string[];
  halt_when?: HaltWhen;
}

export const DEFAULT_TOOL_TIMEOUT_S = 30;

/** Names the system tools own; no data tool may take them (DESIGN D13). */
export const SYSTEM_TOOL_NAMES = [
  "tool_search",
  "load_skill",
  "remember",
  "spawn_subagent",
  "spawn_subagents",
] as const;
