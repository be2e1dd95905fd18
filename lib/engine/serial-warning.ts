/** Gated tools named in the warning; a longer list ends with "and N more". */
const LISTED = 5;

/**
 * The `warning` a turn emits when approvals force its calls to run one at a time although
 * the agent asks for tool_concurrency > 1 (spec: "the approval gate wins"; DESIGN D8), e.g.
 * `approvals on refund, charge force serial execution; tool_concurrency 4 is ignored for this turn`.
 */
export function serialByApprovalsWarning(tools: readonly string[] | undefined, concurrency: number): string {
  const names = [...new Set(tools ?? [])];
  const listed = names.slice(0, LISTED).join(", ");
  const more = names.length > LISTED ? ` and ${names.length - LISTED} more` : "";
  const which = names.length > 0 ? `approvals on ${listed}${more}` : "approvals";
  return `${which} force serial execution; tool_concurrency ${concurrency} is ignored for this turn`;
}
