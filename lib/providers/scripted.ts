/**
 * The `scripted` model (DESIGN D12): a Model whose steps are written in advance, for tests.
 * No network, no randomness. Each request consumes the next step; every request is recorded
 * so a test can check what the engine sent (messages, tools).
 */
import type { Model, ModelMessage, ModelRequest, ModelStreamPart, ModelToolSpec, TokenUsage } from "@/lib/engine/ports";

/** One scripted stream part. `delayMs` waits before the part is streamed (honours abort). */
export type ScriptedPart =
  | { type: "text"; text: string; delayMs?: number }
  | {
      type: "tool-call";
      name: string;
      /** An object is sent as its JSON text; a string is sent as is (may be invalid JSON). */
      args?: Record<string, unknown> | string;
      /** Defaults to `call_<step>_<index>` (index among the step's calls). */
      id?: string;
      delayMs?: number;
    }
  | { type: "usage"; usage: TokenUsage }
  | { type: "error"; message: string; delayMs?: number };

/** What the model received, copied when received (later changes by the engine don't show). */
export interface ScriptedRequest {
  messages: ModelMessage[];
  tools: ModelToolSpec[];
  signal: AbortSignal;
}

/** A step: its parts, or a function of the request that returns them (to look at it). */
export type ScriptedStep =
  ScriptedPart[] | ((request: ScriptedRequest, step: number) => ScriptedPart[] | Promise<ScriptedPart[]>);

/** A Model that plays its steps in order and remembers every request. */
export interface ScriptedModel extends Model {
  /** Every request received, in order (including one that asked for a step too many). */
  readonly requests: readonly ScriptedRequest[];
  /** Steps not played yet. */
  readonly remaining: number;
}

/**
 * Builds a scripted model. Step n answers the n-th request: text parts become text deltas,
 * tool calls become tool-call parts, usage parts are merged into the final `finish` part, an
 * error part makes the stream throw there. A request beyond the script throws a clear error
 * from the stream (the engine then fails the turn).
 */
export function scriptedModel(steps: ScriptedStep[], options: { id?: string } = {}): ScriptedModel {
  const requests: ScriptedRequest[] = [];
  let next = 0;
  return {
    id: options.id ?? "scripted",
    get requests() {
      return requests;
    },
    get remaining() {
      return Math.max(0, steps.length - next);
    },
    stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      // Recorded on the call itself, not on first iteration, so a test sees every ask. The
      // lists are copied (the engine's grow after the ask); their messages and specs are
      // never changed once made, so they are shared, not cloned.
      const recorded: ScriptedRequest = {
        messages: [...request.messages],
        tools: [...request.tools],
        signal: request.signal,
      };
      requests.push(recorded);
      const index = next;
      next += 1;
      return play(steps[index], index, steps.length, recorded);
    },
  };
}

async function* play(
  step: ScriptedStep | undefined,
  index: number,
  total: number,
  request: ScriptedRequest,
): AsyncGenerator<ModelStreamPart> {
  if (step === undefined) {
    throw new Error(`scripted model: request ${index + 1} has no scripted step (only ${total} scripted)`);
  }
  const parts = typeof step === "function" ? await step(request, index) : step;
  let usage: TokenUsage | undefined;
  let calls = 0;
  for (const part of parts) {
    if ("delayMs" in part && part.delayMs) await sleep(part.delayMs, request.signal);
    request.signal.throwIfAborted();
    switch (part.type) {
      case "text":
        yield { type: "text-delta", text: part.text };
        break;
      case "tool-call": {
        const args = part.args ?? {};
        const id = part.id ?? `call_${index}_${calls}`;
        calls += 1;
        yield {
          type: "tool-call",
          call: { id, name: part.name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
        };
        break;
      }
      case "usage":
        usage = { ...usage, ...part.usage };
        break;
      case "error":
        throw new Error(part.message);
    }
  }
  yield usage ? { type: "finish", usage } : { type: "finish" };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** A text delta. */
export function text(value: string, delayMs?: number): ScriptedPart {
  return delayMs === undefined ? { type: "text", text: value } : { type: "text", text: value, delayMs };
}

/** A tool call; `args` as an object (sent as JSON) or raw text. */
export function toolCall(
  name: string,
  args: Record<string, unknown> | string = {},
  options: { id?: string; delayMs?: number } = {},
): ScriptedPart {
  return { type: "tool-call", name, args, ...options };
}

/** Token usage, reported in the step's finish part. */
export function usage(value: TokenUsage): ScriptedPart {
  return { type: "usage", usage: value };
}

/** Makes the stream throw `message` at this point (a provider error mid-stream). */
export function streamError(message: string, delayMs?: number): ScriptedPart {
  return delayMs === undefined ? { type: "error", message } : { type: "error", message, delayMs };
}
