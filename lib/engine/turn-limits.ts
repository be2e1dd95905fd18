/**
 * The per-turn limits (an agent's `limits`), their reference defaults, and the
 * small formatting/timer helpers that the limit messages depend on.
 */

/** The limits a turn runs under. Seconds may be fractional (tests use ms-scale limits). */
export interface TurnLimits {
  /** Enveloped calls in flight at once; 1 = one at a time, in call order. */
  tool_concurrency: number;
  /** Enveloped calls the model may make in one turn. */
  max_tool_calls: number;
  /** Seconds for the whole turn. */
  turn_timeout: number;
  /** Seconds for one tool call. */
  tool_timeout: number;
}

/** The reference defaults (spec, "Agents"). */
export const DEFAULT_TURN_LIMITS: Readonly<TurnLimits> = Object.freeze({
  tool_concurrency: 1,
  max_tool_calls: 50,
  turn_timeout: 300,
  tool_timeout: 60,
});

/**
 * The most tool calls one model step may ask for: the highest max_tool_calls an agent can set
 * (lib/agents LIMIT_MAXIMA), so no turn could run more. A model (or model server) streaming more
 * fails its turn as a model error before any call runs, instead of every call past the turn's
 * limit being refused and traced one by one (two events each, thousands per step).
 */
export const MAX_TOOL_CALLS_PER_STEP = 1_000;

/**
 * Fills absent limits with the defaults and checks the rest. Throws a RangeError naming the
 * limit for a value that cannot mean anything (the engine fails the turn with it: a
 * configuration fault, reported rather than silently replaced by a default).
 */
export function resolveTurnLimits(partial: Partial<TurnLimits> | undefined): TurnLimits {
  const limits: TurnLimits = { ...DEFAULT_TURN_LIMITS };
  for (const key of Object.keys(DEFAULT_TURN_LIMITS) as (keyof TurnLimits)[]) {
    const value = partial?.[key];
    if (value !== undefined) limits[key] = value;
  }
  if (!Number.isInteger(limits.tool_concurrency) || limits.tool_concurrency < 1) {
    throw new RangeError(`invalid limits: tool_concurrency must be an integer >= 1`);
  }
  if (!Number.isInteger(limits.max_tool_calls) || limits.max_tool_calls < 0) {
    throw new RangeError(`invalid limits: max_tool_calls must be an integer >= 0`);
  }
  for (const key of ["turn_timeout", "tool_timeout"] as const) {
    if (typeof limits[key] !== "number" || !Number.isFinite(limits[key]) || limits[key] <= 0) {
      throw new RangeError(`invalid limits: ${key} must be a number of seconds > 0`);
    }
  }
  return limits;
}

/** Seconds as people write them in messages: `60`, `1.5`, `0.05` (never `60.0`), to the millisecond. */
export function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : String(Math.round(seconds * 1000) / 1000);
}

// setTimeout clamps anything above 2^31-1 ms to 1 ms (with only a warning): a huge
// configured timeout would fire at once instead of never.
const MAX_TIMER_MS = 2_147_483_647;

/** Milliseconds for a setTimeout of `seconds`, clamped to what timers can hold (~24.8 days). */
export function timeoutMs(seconds: number): number {
  return Math.min(Math.max(0, seconds * 1000), MAX_TIMER_MS);
}
