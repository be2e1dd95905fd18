/**
 * Copies a tool call's arguments for the call record.
 */
import { defineOwn } from "./template-scope";

/**
 * The call record's own copy of the arguments: as sent, immune to later
 * mutation, and plain JSON (what JSON.parse(JSON.stringify(args)) gives; null
 * for undefined or anything JSON cannot serialize). Never throws.
 */
export function copyArguments(args: unknown): unknown {
  try {
    if (args === undefined) return null;
    return copyFlatArguments(args) ?? (JSON.parse(JSON.stringify(args)) as unknown);
  } catch {
    return null;
  }
}

/**
 * The JSON round trip above for the usual arguments, a plain object of scalars,
 * without the text in between (it is most of copyArguments' cost); undefined
 * for anything else, which then takes the round trip. Gives exactly what the
 * round trip gives: own enumerable string keys in order, `-0` as 0, NaN and
 * ±Infinity as null, undefined/function/symbol values left out, and every key
 * an own data property (`__proto__` included, as JSON.parse makes it).
 */
function copyFlatArguments(args: unknown): Record<string, unknown> | undefined {
  if (args === null || typeof args !== "object" || Object.getPrototypeOf(args) !== Object.prototype) return undefined;
  const source = args as Record<string, unknown>;
  // JSON.stringify would serialize what toJSON returns instead (looked up as it does).
  if (typeof source.toJSON === "function") return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    let copy: unknown;
    if (typeof value === "string" || typeof value === "boolean" || value === null) copy = value;
    else if (typeof value === "number")
      copy = Number.isFinite(value) ? value + 0 : null; // + 0 turns -0 into 0
    else if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
    else return undefined; // an object, an array or a bigint: the round trip decides
    defineOwn(out, key, copy);
  }
  return out;
}
