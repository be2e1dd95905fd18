import { errorMessage } from "@/lib/errors";
import { jsonNestingDepth } from "./json-nesting-depth";
/** The result of reading a tool call's raw argument text. */
export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/**
 * The deepest nesting (objects and arrays) a call's arguments may have: twice what a
 * parameters schema may describe (SAFE_SCHEMA_LIMITS.maxDepth, 32), far below the depth at
 * which the recursive writers that see the arguments afterwards (the call identity, the
 * trace, the provider SDK re-sending the call) overflow the stack.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * The longest arguments text a call may have (UTF-16 code units): far more than a model's
 * whole answer holds (128k tokens are about 512 KB), far less than what a model server may
 * stream in one step (64 MiB). Longer text is not kept: the turn's messages, its checkpoints
 * and the trace would otherwise carry it, once per step for the checkpoints.
 */
export const MAX_ARGUMENT_CHARS = 1024 * 1024;

const OVERSIZE_PREFIX = "(arguments not kept: ";

/**
 * What a call's arguments text becomes when it is longer than MAX_ARGUMENT_CHARS
 * (streamModelStep keeps this in its place): short, not JSON (the provider adapters replay it
 * as `{}`), and read back by parseToolArguments as the refusal naming the size.
 */
export function oversizeArgumentsText(length: number): string {
  return `${OVERSIZE_PREFIX}${length} characters, over the limit of ${MAX_ARGUMENT_CHARS})`;
}

/**
 * Parses the raw JSON text a provider gave as a call's arguments. Only a JSON object nested
 * at most MAX_ARGUMENT_DEPTH levels, in at most MAX_ARGUMENT_CHARS characters, is accepted;
 * anything else is an error message for the model (prefixed `arguments are not valid JSON: `,
 * `arguments are nested too deeply` or `arguments are too long`), never a throw. Blank text
 * counts as `{}`: some providers stream nothing at all for a call without parameters, and
 * that is not the model's mistake.
 */
export function parseToolArguments(raw: string): ParsedArguments {
  if (typeof raw !== "string") return invalid(`expected JSON text, got ${describe(raw)}`);
  if (raw.length > MAX_ARGUMENT_CHARS) return tooLong(String(raw.length));
  if (raw.startsWith(OVERSIZE_PREFIX)) {
    // The note's length, read from a bounded slice (a model may send text that starts like it).
    const length = /^\d{1,15}/.exec(raw.slice(OVERSIZE_PREFIX.length, OVERSIZE_PREFIX.length + 15))?.[0];
    return tooLong(length ?? "more than " + MAX_ARGUMENT_CHARS);
  }
  if (raw.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return invalid(errorMessage(error));
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return invalid(`expected an object, got ${describe(value)}`);
  }
  if (jsonNestingDepth(raw) > MAX_ARGUMENT_DEPTH) {
    return { ok: false, error: `arguments are nested too deeply (more than ${MAX_ARGUMENT_DEPTH} levels)` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function tooLong(length: string): ParsedArguments {
  return {
    ok: false,
    error: `arguments are too long (${length} characters; at most ${MAX_ARGUMENT_CHARS}): the call was not run`,
  };
}

function invalid(detail: string): ParsedArguments {
  return { ok: false, error: `arguments are not valid JSON: ${detail}` };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}
