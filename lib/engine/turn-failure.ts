/**
 * Why a turn failed, by who is at fault (DESIGN §3.4): every failed turn carries a stable
 * `code` and the `fault` it implies, next to the human-readable `error` text.
 * - model: the model provider failed or answered with an error (upstream; an API answers 502).
 * - configuration: the turn cannot run as configured (limits, provider secret, egress, agent).
 * - limit: a limit of the turn was reached (max_tool_calls, turn_timeout).
 * - cancelled: the caller cancelled the turn.
 * - system: Insika itself failed (persistence, an internal error, a resume it cannot make).
 */
export type TurnFault = "model" | "configuration" | "limit" | "cancelled" | "system";

const FAULT_OF = {
  model_error: "model",
  model_configuration: "configuration",
  provider_secret_missing: "configuration",
  provider_blocked: "configuration",
  invalid_limits: "configuration",
  agent_deleted: "configuration",
  tool_call_limit: "limit",
  turn_timeout: "limit",
  cancelled: "cancelled",
  checkpoint_failed: "system",
  event_sink_failed: "system",
  resume_failed: "system",
  lease_lost: "system",
  recording_failed: "system",
  internal_error: "system",
} as const satisfies Record<string, TurnFault>;

/** Every code a failed turn can carry (docs/api.md lists them with their meaning). */
export type TurnFailureCode = keyof typeof FAULT_OF;

export const TURN_FAILURE_CODES = Object.keys(FAULT_OF) as TurnFailureCode[];

/** Codes a model's error may name for itself: the model cannot run as configured. */
export const MODEL_CONFIGURATION_CODES: ReadonlySet<TurnFailureCode> = new Set([
  "model_configuration",
  "provider_secret_missing",
  "provider_blocked",
]);

/** Codes a sink's or checkpoint store's error may name for itself (else event_sink_failed / checkpoint_failed). */
export const PERSISTENCE_CODES: ReadonlySet<TurnFailureCode> = new Set(["lease_lost"]);

/** The fault a code implies. */
export const faultOf = (code: TurnFailureCode): TurnFault => FAULT_OF[code];

/** A failed turn's three facts, as `turn_failed` and a failed result carry them. */
export interface FailureInfo {
  error: string;
  code: TurnFailureCode;
  fault: TurnFault;
}

/**
 * An error whose message is exactly what `turn_failed.error` should say, with its code.
 * Anything else reaching the loop becomes `internal_error`.
 */
export class TurnFailure extends Error {
  override name = "TurnFailure";
  constructor(
    readonly code: TurnFailureCode,
    message: string,
  ) {
    super(message);
  }

  get fault(): TurnFault {
    return FAULT_OF[this.code];
  }

  get info(): FailureInfo {
    return { error: this.message, code: this.code, fault: this.fault };
  }
}

/** A failure's facts from its code and text. */
export const failureInfo = (code: TurnFailureCode, error: string): FailureInfo => ({
  error,
  code,
  fault: FAULT_OF[code],
});

/**
 * The code an error names for itself in a `failureCode` property (a model that cannot run as
 * configured, a sink whose turn was taken over), when it is one of `allowed`.
 */
export function ownFailureCode(error: unknown, allowed: ReadonlySet<TurnFailureCode>): TurnFailureCode | undefined {
  if (typeof error !== "object" || error === null || !("failureCode" in error)) return undefined;
  const code = (error as { failureCode: unknown }).failureCode;
  return typeof code === "string" && allowed.has(code as TurnFailureCode) ? (code as TurnFailureCode) : undefined;
}

/** The message of anything thrown, without a stack or a class-name prefix. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
