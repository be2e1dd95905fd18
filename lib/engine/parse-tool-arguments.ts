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
 * Parses the raw JSON text a provider gave as a call's arguments. Only a JSON object nested
 * at most MAX_ARGUMENT_DEPTH levels is accepted; anything else is an error message for the
 * model (prefixed `arguments are not valid JSON: `, or `arguments are nested too deeply`),
 * never a throw. Blank text counts as `{}`: some providers stream nothing at all for a call
 * without parameters, and that is not the model's mistake.
 */
export function parseToolArguments(raw: string): ParsedArguments {
  if (typeof raw !== "string") return invalid(`expected JSON text, got ${describe(raw)}`);
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

function invalid(detail: string): ParsedArguments {
  return { ok: false, error: `arguments are not valid JSON: ${detail}` };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}
