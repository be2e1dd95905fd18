import { errorMessage } from "@/lib/errors";
/** The result of reading a tool call's raw argument text. */
export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/**
 * Parses the raw JSON text a provider gave as a call's arguments. Only a JSON object is
 * accepted; anything else is an error message for the model (prefixed
 * `arguments are not valid JSON: `), never a throw. Blank text counts as `{}`: some providers
 * stream nothing at all for a call without parameters, and that is not the model's mistake.
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
