/**
 * The name observability gives a call's tool. The name a call carries is the model's choice,
 * and metrics keep a series per label value and spans should have few distinct names, so only
 * a tool the operator defined (or a system tool) is named; any other name is UNKNOWN_TOOL_LABEL.
 */

/** The label of a call whose name is no tool (not valid as a tool name, so it cannot clash with one). */
export const UNKNOWN_TOOL_LABEL = "(unknown tool)";

/** `name` when `isKnownTool` vouches for it, else UNKNOWN_TOOL_LABEL. */
export function toolLabel(name: string, isKnownTool: (name: string) => boolean): string {
  return isKnownTool(name) ? name : UNKNOWN_TOOL_LABEL;
}
