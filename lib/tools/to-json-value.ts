/**
 * Copies untrusted input into a plain JSON value before any validation reads
 * it. Write paths hand us parsed JSON (API, manifest, MCP) or a TypeScript
 * object (the config file); after this copy the validator only ever sees
 * plain objects, arrays and JSON scalars, bounded in depth and size, with no
 * getters, prototypes or aliasing back into the caller's object.
 */
import type { JsonValue } from "./types";
import { errorMessage } from "@/lib/errors";

/** A detached JSON copy, or the first reason the input is not JSON. */
export type ToJsonValueResult = { ok: true; value: JsonValue } | { ok: false; error: string };

/** Bounds for a tool definition: far above any real one, low enough to stay cheap. */
export const JSON_INPUT_LIMITS = { maxDepth: 64, maxNodes: 100_000 };

class NotJson extends Error {}

/**
 * Returns a deep copy of `input` as a JSON value, or an error naming the
 * first offending path. Object properties whose value is `undefined` are
 * dropped (as JSON.stringify does, so `{ group: undefined }` from a config
 * file means "absent"); anything else that JSON cannot hold (functions,
 * Dates, Maps, class instances, NaN/Infinity, bigint, holes) is refused.
 * Keys are copied as own data properties, so `__proto__` stays a plain key.
 * Never throws.
 */
export function toJsonValue(input: unknown, limits = JSON_INPUT_LIMITS): ToJsonValueResult {
  const state = { nodes: 0 };
  try {
    return { ok: true, value: copy(input, "", 0, limits, state) };
  } catch (e) {
    if (e instanceof NotJson) return { ok: false, error: e.message };
    // A throwing getter or proxy trap: report it instead of propagating.
    return { ok: false, error: `could not be read (${errorMessage(e)})` };
  }
}

function copy(
  v: unknown,
  path: string,
  depth: number,
  limits: typeof JSON_INPUT_LIMITS,
  state: { nodes: number },
): JsonValue {
  state.nodes += 1;
  if (state.nodes > limits.maxNodes) throw new NotJson(`too large (more than ${limits.maxNodes} values)`);
  if (depth > limits.maxDepth) throw new NotJson(`nested too deeply (more than ${limits.maxDepth} levels)`);
  const at = path === "" ? "the value" : path;
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new NotJson(`${at}: ${v} is not a JSON number`);
    return v;
  }
  if (Array.isArray(v)) {
    const out: JsonValue[] = [];
    for (let i = 0; i < v.length; i += 1) {
      if (!(i in v) || v[i] === undefined) throw new NotJson(`${path}[${i}]: missing value`);
      out.push(copy(v[i], `${path}[${i}]`, depth + 1, limits, state));
    }
    return out;
  }
  if (typeof v === "object") {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      const kind = (proto as { constructor?: { name?: unknown } })?.constructor?.name;
      throw new NotJson(`${at}: not a JSON value (${typeof kind === "string" ? kind : "non-plain object"})`);
    }
    const out: { [key: string]: JsonValue } = {};
    for (const key of Object.keys(v)) {
      const item = (v as Record<string, unknown>)[key];
      if (item === undefined) continue;
      const child = copy(item, path === "" ? key : `${path}.${key}`, depth + 1, limits, state);
      Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  throw new NotJson(`${at}: a ${typeof v} is not a JSON value`);
}
