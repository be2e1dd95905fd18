/**
 * Test-only fakes for the engine's ports (imported by *.test.ts files, never by the app).
 */
import type { EngineEvent, EventSink, ModelToolSpec, ToolCallRequest, ToolExecutor, ToolOutcome } from "./ports";
import type { RunTurnInput } from "./run-turn";

/** What a test gives a turn: the model, plus whatever it changes from the defaults. */
export type TurnInputOverrides = Partial<RunTurnInput> & Pick<RunTurnInput, "model">;

/**
 * A turn's input for tests: turn `turn-1`, no history, user message "go", the `lookup` tool,
 * an echoing fakeExecutor, an empty context and a fresh recordingSink, each overridable.
 */
export function turnInput(overrides: TurnInputOverrides): RunTurnInput {
  return {
    turnId: "turn-1",
    history: [],
    userMessage: "go",
    tools: [toolSpec("lookup")],
    executor: fakeExecutor(),
    ctx: {},
    sink: recordingSink(),
    ...overrides,
  };
}

/** A sink that keeps every event; `delayMs` makes each emit slow (async persistence). */
export interface RecordingSink extends EventSink {
  readonly events: EngineEvent[];
  types(): string[];
  ofType<T extends EngineEvent["type"]>(type: T): Extract<EngineEvent, { type: T }>[];
}

/** Builds a RecordingSink; with `delayMs` each emit resolves later (a varying delay if a function). */
export function recordingSink(delayMs?: number | ((event: EngineEvent, index: number) => number)): RecordingSink {
  const events: EngineEvent[] = [];
  let seen = 0;
  return {
    events,
    types: () => events.map((event) => event.type),
    ofType: <T extends EngineEvent["type"]>(type: T) =>
      events.filter((event): event is Extract<EngineEvent, { type: T }> => event.type === type),
    emit(event) {
      const index = seen++;
      const wait = typeof delayMs === "function" ? delayMs(event, index) : (delayMs ?? 0);
      if (wait <= 0) {
        events.push(event);
        return;
      }
      return sleep(wait).then(() => {
        events.push(event);
      });
    },
  };
}

/** A tool spec with an open object schema. */
export function toolSpec(name: string): ModelToolSpec {
  return { name, description: `the ${name} tool`, parameters: { type: "object", properties: {} } };
}

/** An ok outcome whose content is `value` as JSON text. */
export function okOutcome(value: unknown, extra: { halt?: { say: string | null; reason: string } } = {}): ToolOutcome {
  return { ok: true, content: JSON.stringify(value), ...extra };
}

/** A failed outcome as an executor would return it. */
export function failedOutcome(error: string): ToolOutcome {
  return { ok: false, content: JSON.stringify({ error }), error };
}

/** An executor that records calls and in-flight counts around `handler`. */
export interface FakeExecutor extends ToolExecutor {
  readonly calls: ToolCallRequest[];
  /** Tool names in the order calls finished. */
  readonly finished: string[];
  readonly maxInFlight: number;
}

/** Wraps `handler` (default: echo the arguments) into a recording executor. */
export function fakeExecutor(
  handler: (request: ToolCallRequest) => ToolOutcome | Promise<ToolOutcome> = (request) =>
    okOutcome({ tool: request.tool, arguments: request.arguments }),
): FakeExecutor {
  const calls: ToolCallRequest[] = [];
  const finished: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    calls,
    finished,
    get maxInFlight() {
      return maxInFlight;
    },
    async execute(request) {
      calls.push(request);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await handler(request);
      } finally {
        inFlight -= 1;
        finished.push(request.tool);
      }
    },
  };
}

/** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const TERMINAL = new Set(["turn_completed", "turn_halted", "turn_waiting", "turn_failed"]);

/** The terminal events of a run; a correct turn has exactly one, and it is the last event. */
export function terminalEvents(sink: RecordingSink): EngineEvent[] {
  return sink.events.filter((event) => TERMINAL.has(event.type));
}

/** The event types of a turn that says something, calls one tool and answers. */
export const ONE_CALL_TURN_EVENTS = [
  "turn_started",
  "text_delta",
  "tool_call",
  "tool_result",
  "text_delta",
  "turn_completed",
] as const;
