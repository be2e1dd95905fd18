import type { ModelToolSpec } from "@/lib/engine/ports";

/** What a system tool returns: a JSON value for the model and, for tool_search, tools to promote. Failures throw an Error whose message the model reads. */
export interface SystemToolResult {
  value: unknown;
  promote?: ModelToolSpec[];
}
