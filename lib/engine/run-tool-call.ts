import { abortable } from "./abortable";
import { followSignal } from "./follow-signal";
import type { ToolCallRequest, ToolExecutor, ToolOutcome } from "./ports";
import { errorMessage } from "./turn-failure";
import { formatSeconds, timeoutMs } from "./turn-limits";
import { isJsonText } from "@/lib/tools/is-json-text";

/**
 * How one executed call ended: with an outcome for the model (a tool timeout included, as an
 * error outcome), or interrupted by the turn stopping (`reason` is the turn's failure message).
 */
export type CallEnd = { kind: "outcome"; outcome: ToolOutcome } | { kind: "interrupted"; reason: string };

/** What runToolCall needs: the request (its signal is made here) and the bounds. */
export interface RunToolCallInput {
  executor: ToolExecutor;
  request: Omit<ToolCallRequest, "signal">;
  /** tool_timeout, in seconds. */
  timeoutS: number;
  /** Aborting it interrupts the call (the turn's cancel or, in serial mode, its deadline). */
  interrupt: AbortSignal;
}

/**
 * Runs one call through the executor. Never rejects. On tool_timeout the call's signal is
 * aborted and the model gets `TimeoutError: tool exceeded Ns`; on `interrupt` the call's
 * signal is aborted too and the result is `interrupted`. Neither waits for the executor to
 * settle: an executor that ignores its signal cannot hold the turn (it is expected to honour
 * it, since its concurrency slot is given back at that point).
 */
export async function runToolCall(input: RunToolCallInput): Promise<CallEnd> {
  if (input.interrupt.aborted) return interrupted(input.interrupt);
  // The call's signal: aborted by tool_timeout or by `interrupt`, whichever comes first.
  const call = new AbortController();
  const timer = setTimeout(() => call.abort(new Error("tool timeout")), timeoutMs(input.timeoutS));
  const unfollow = followSignal(call, input.interrupt);
  const signal = call.signal;
  try {
    // new Promise(...) turns a synchronous throw from execute() into a rejection.
    const work = new Promise<unknown>((resolve) => resolve(input.executor.execute({ ...input.request, signal })));
    return { kind: "outcome", outcome: normalizeOutcome(await abortable(work, signal)) };
  } catch (error) {
    // Ask which signal fired rather than trusting the error: an executor may reject with
    // its own AbortError once aborted.
    if (input.interrupt.aborted) return interrupted(input.interrupt);
    if (signal.aborted) return { kind: "outcome", outcome: errorOutcome(timeoutMessage(input.timeoutS)) };
    // A throwing executor broke its contract (DESIGN §3.3); the model still gets a result.
    return { kind: "outcome", outcome: errorOutcome(`tool failed: ${errorMessage(error)}`) };
  } finally {
    clearTimeout(timer);
    unfollow();
  }
}

/** The model-facing message for a call that ran past tool_timeout. */
export function timeoutMessage(timeoutS: number): string {
  return `TimeoutError: tool exceeded ${formatSeconds(timeoutS)}s`;
}

/** An `ok:false` outcome whose content is `{"error": message}` as JSON text. */
export function errorOutcome(message: string): ToolOutcome {
  return { ok: false, content: JSON.stringify({ error: message }), error: message };
}

/**
 * Makes an executor's answer safe to hand on: a malformed outcome becomes an error, and
 * content that is not JSON text is wrapped as a JSON string, because every result reaches
 * the model as JSON text (DESIGN D2) whoever produced it.
 */
export function normalizeOutcome(value: unknown): ToolOutcome {
  if (value === null || typeof value !== "object") return errorOutcome("tool returned no outcome");
  const outcome = value as Record<string, unknown>;
  if (typeof outcome.ok !== "boolean" || typeof outcome.content !== "string") {
    return errorOutcome("tool returned a malformed outcome");
  }
  const content = isJsonText(outcome.content) ? outcome.content : JSON.stringify(outcome.content);
  if (outcome.ok) return { ...(value as ToolOutcome), content };
  const error = typeof outcome.error === "string" && outcome.error !== "" ? outcome.error : "tool call failed";
  // Rebuilt field by field so that a failure can never carry a halt verdict along.
  const failed: ToolOutcome = { ok: false, content, error };
  if ("record" in outcome) failed.record = outcome.record;
  return failed;
}

function interrupted(signal: AbortSignal): CallEnd {
  return { kind: "interrupted", reason: errorMessage(signal.reason) };
}
