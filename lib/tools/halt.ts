/**
 * `halt_when` / `say`: deciding, from a tool's own response, that the turn
 * is over. The engine acts on the verdict; this module only decides, and it
 * decides conservatively: a turn never ends on a guess, so anything unclear
 * (an error status, a body that is not JSON, a path that is not there, a value
 * that is not a scalar) means "do not halt".
 */
import { readJsonPath } from "./json-path";
import type { HaltWhen } from "./types";

/** The engine's answer for one response: keep going, or end the turn (and what to publish). */
export type HaltVerdict =
  | { halt: false }
  | {
      halt: true;
      /** What to publish when the model wrote no lead-in; null = publish nothing. */
      say: string | null;
      /** Why, for the trace: the path and the value that matched. */
      reason: string;
    };

/**
 * The canonical string form of a scalar for `equals`: strings as they are,
 * numbers in their JSON form (`1`, `1.5`, `1e+21`), booleans `true`/`false`.
 * null, objects and arrays have no form (null): they never match.
 */
export function canonicalScalar(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return JSON.stringify(value);
  return null;
}

/**
 * Evaluates `haltWhen` against one response. Halts only when the status is
 * 2xx, the body parses as JSON, `json_path` resolves, and the value's
 * canonical form is one of `equals` (exact, case-sensitive). `say.text` is
 * published literally; `say.json_path` only when it resolves to a string that
 * is not blank (a number or an object reaching a customer is never meant).
 * Independent of `response.extract`. Never throws.
 */
export function evaluateHalt(
  haltWhen: HaltWhen | null | undefined,
  httpStatus: number,
  rawBodyText: string,
): HaltVerdict {
  try {
    if (!haltWhen || typeof haltWhen !== "object") return { halt: false };
    if (!Number.isInteger(httpStatus) || httpStatus < 200 || httpStatus > 299) return { halt: false };
    if (typeof rawBodyText !== "string") return { halt: false };
    let body: unknown;
    try {
      body = JSON.parse(rawBodyText);
    } catch {
      return { halt: false };
    }
    const hit = readJsonPath(body, haltWhen.json_path);
    if (!hit.found) return { halt: false };
    const actual = canonicalScalar(hit.value);
    if (actual === null || !Array.isArray(haltWhen.equals) || !haltWhen.equals.includes(actual)) {
      return { halt: false };
    }
    return {
      halt: true,
      say: resolveSay(haltWhen, body),
      reason: `${haltWhen.json_path} = ${JSON.stringify(actual)}`,
    };
  } catch {
    // A malformed stored rule must not take the turn down; not halting lets
    // the model see the result, which is the safe failure.
    return { halt: false };
  }
}

function resolveSay(haltWhen: HaltWhen, body: unknown): string | null {
  const say = haltWhen.say;
  if (!say || typeof say !== "object") return null;
  if (typeof say.text === "string") return say.text.trim() === "" ? null : say.text;
  if (typeof say.json_path === "string") {
    const hit = readJsonPath(body, say.json_path);
    if (hit.found && typeof hit.value === "string" && hit.value.trim() !== "") return hit.value;
  }
  return null;
}
