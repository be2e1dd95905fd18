/**
 * Code tools: TypeScript classes shipped in the build. They are allow/deny only
 * (not editable at runtime) and win name collisions with data tools.
 */
import type { JsonSchema, TurnContext } from "@/lib/tools/types";

export interface CodeToolContext {
  ctx: TurnContext;
  signal: AbortSignal;
}

/**
 * A code tool. `execute` returns the result value (serialized to JSON for the
 * model) or throws; the executor turns a throw into an `{ error }` result.
 */
export abstract class CodeTool<Args extends Record<string, unknown> = Record<string, unknown>> {
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly parameters: JsonSchema;
  /** Drives checkpoint/replay: a completed side-effecting call is never re-run on resume. */
  readonly sideEffect: boolean = false;
  readonly group: string | null = null;
  readonly tags: readonly string[] = [];

  abstract execute(args: Args, context: CodeToolContext): Promise<unknown>;
}
