import type { CompletedCall, ResumeState } from "./ports";

/** What the model is told about a side-effecting call whose outcome was lost (DESIGN D9). */
export const OUTCOME_UNKNOWN = "outcome unknown: the call was in flight when the server stopped; it was not retried";

/** How a resumed turn treats a call it meets again: reuse its result, or report it unknown. */
export type PriorCall = { kind: "reuse"; call: CompletedCall } | { kind: "unknown"; record?: unknown };

/**
 * The calls of earlier runs of a turn, by identity (never by provider call id). A call with a
 * final result is reused as is; a call that was started but never finished is "unknown" when
 * its tool is side-effecting (it may have happened: it is not sent again) and otherwise runs
 * again like a new call.
 */
export class ResumeLedger {
  readonly #completed = new Map<string, CompletedCall>();
  readonly #inFlight: ReadonlySet<string>;
  readonly #records: ReadonlyMap<string, unknown>;
  readonly #sideEffect: (tool: string) => boolean;

  /** `sideEffect` answers for a tool name; it should default to true when unsure. */
  constructor(
    resume: Pick<ResumeState, "completed" | "inFlight" | "unknownRecords">,
    sideEffect: (tool: string) => boolean,
  ) {
    for (const call of resume.completed) this.#completed.set(call.identity, call);
    this.#inFlight = new Set(resume.inFlight);
    this.#records = resume.unknownRecords ?? new Map();
    this.#sideEffect = sideEffect;
  }

  /** The earlier fate of the call with this identity, or undefined when it is new (or may re-run). */
  lookup(identity: string, tool: string): PriorCall | undefined {
    const call = this.#completed.get(identity);
    if (call) return { kind: "reuse", call };
    if (this.#inFlight.has(identity) && this.#sideEffect(tool)) {
      const record = this.#records.get(identity);
      return record === undefined ? { kind: "unknown" } : { kind: "unknown", record };
    }
    return undefined;
  }
}
