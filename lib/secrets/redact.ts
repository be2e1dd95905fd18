/**
 * Redaction by value: every occurrence of a secret's value (and its common
 * encodings) is replaced before text reaches a trace, a log, an error or an API response.
 */
export const REDACTED = "[secret]";

/** Replaces every occurrence of each secret value in `text`. Values shorter than 4 characters are still masked. */
export function redactText(text: string, secretValues: Iterable<string>): string {
  let out = text;
  for (const value of secretValues) {
    if (!value) continue;
    for (const form of encodings(value)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/** Redacts every string inside a JSON-like value (keys included), returning a new value. */
export function redactValue<T>(value: T, secretValues: readonly string[]): T {
  if (secretValues.length === 0) return value;
  return JSON.parse(redactText(JSON.stringify(value) ?? "null", secretValues.flatMap(jsonEscaped))) as T;
}

function encodings(value: string): string[] {
  const forms = new Set([value, encodeURIComponent(value), Buffer.from(value).toString("base64")]);
  return [...forms].sort((a, b) => b.length - a.length);
}

function jsonEscaped(value: string): string[] {
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped === value ? [value] : [value, escaped];
}
