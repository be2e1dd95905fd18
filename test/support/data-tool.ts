/** Test-only: a valid data tool definition with overridable parts. */
import type { DataToolDefinition } from "@/lib/tools/types";

export function dataTool(
  overrides: Partial<DataToolDefinition> & { request: DataToolDefinition["request"] },
): DataToolDefinition {
  return {
    name: "test_tool",
    description: "a test tool",
    parameters: { type: "object", properties: {} },
    response: { extract: "body_raw" },
    secret_headers: [],
    side_effect: false,
    timeout: 5,
    group: null,
    tags: [],
    ...overrides,
  };
}
