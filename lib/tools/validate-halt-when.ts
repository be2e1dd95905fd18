/**
 * Validates `halt_when` (and its `say`) at load time, so the engine's
 * evaluateHalt only ever meets a well-formed rule.
 */
import { canonicalScalar } from "./halt";
import { parseJsonPath } from "./json-path";
import type { HaltWhen, JsonValue, SayRule } from "./types";

const HALT_FIELDS = ["json_path", "equals", "say"];
const SAY_FIELDS = ["text", "json_path"];

/**
 * Returns the normalized rule, undefined when absent (undefined or null), or
 * null after pushing problems. `equals` is stored as strings (numbers in JSON
 * form, booleans as `true`/`false`); paths are stored trimmed. `say` must hold
 * exactly one of a non-blank `text` or a valid `json_path`.
 */
export function validateHaltWhen(raw: JsonValue | undefined, problems: string[]): HaltWhen | undefined | null {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) {
    problems.push("halt_when must be an object");
    return null;
  }
  const start = problems.length;
  for (const key of Object.keys(raw)) {
    if (!HALT_FIELDS.includes(key)) problems.push(`unknown field 'halt_when.${key}'`);
  }
  const jsonPath = checkPath(raw.json_path, "halt_when.json_path", problems);
  const equals = checkEquals(raw.equals, problems);
  const say = checkSay(raw.say, problems);
  if (problems.length > start || jsonPath === null || equals === null || say === null) return null;
  const rule: HaltWhen = { json_path: jsonPath, equals };
  if (say !== undefined) rule.say = say;
  return rule;
}

function checkPath(raw: JsonValue | undefined, where: string, problems: string[]): string | null {
  if (raw === undefined || raw === null) {
    problems.push(`${where} is required`);
    return null;
  }
  const parsed = parseJsonPath(raw);
  if (!parsed.ok) {
    problems.push(`${where}: ${parsed.error}`);
    return null;
  }
  return (raw as string).trim();
}

function checkEquals(raw: JsonValue | undefined, problems: string[]): string[] | null {
  const shape = "halt_when.equals must be a non-empty list of strings, numbers or booleans";
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push(shape);
    return null;
  }
  const out: string[] = [];
  raw.forEach((v, i) => {
    if (v === null) {
      // The engine never matches null (a missing status is not a status).
      problems.push(`halt_when.equals[${i}]: null never matches; use a string, number or boolean`);
      return;
    }
    const s = canonicalScalar(v);
    if (s === null) problems.push(`halt_when.equals[${i}] must be a string, number or boolean`);
    else out.push(s);
  });
  return out.length === raw.length ? out : null;
}

function checkSay(raw: JsonValue | undefined, problems: string[]): SayRule | undefined | null {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) {
    problems.push("halt_when.say must be an object with exactly one of text or json_path");
    return null;
  }
  const start = problems.length;
  for (const key of Object.keys(raw)) {
    if (!SAY_FIELDS.includes(key)) problems.push(`unknown field 'halt_when.say.${key}'`);
  }
  const hasText = raw.text !== undefined && raw.text !== null;
  const hasPath = raw.json_path !== undefined && raw.json_path !== null;
  // Two answers to "what does the customer get" is a configuration nobody can read.
  if (hasText && hasPath) {
    problems.push("halt_when.say must have exactly one of text or json_path, not both");
    return null;
  }
  if (!hasText && !hasPath) {
    problems.push("halt_when.say must have exactly one of text or json_path (it has neither)");
    return null;
  }
  if (hasText) {
    if (typeof raw.text !== "string" || raw.text.trim() === "") {
      problems.push("halt_when.say.text must be a non-blank string");
      return null;
    }
    return problems.length > start ? null : { text: raw.text };
  }
  const path = checkPath(raw.json_path, "halt_when.say.json_path", problems);
  return path === null || problems.length > start ? null : { json_path: path };
}

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
