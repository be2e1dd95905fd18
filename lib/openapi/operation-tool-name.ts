/**
 * The tool name of an operation: its `operationId` in the name rule
 * (`/^[a-z][a-z0-9_]*$/`, at most 64 characters: `getPetById` ->
 * `get_pet_by_id`, `repos/get-content` -> `repos_get_content`), or, without
 * one, a name made from the method and the path (`GET /pets/{id}` ->
 * `get_pets_id`), so a re-import names the same operation the same way.
 */
import { MAX_TOOL_NAME_LENGTH } from "@/lib/tools";

/** `getPetById` -> `get_pet_by_id`; always matches the name rule (empty input -> `op`). */
export function normalizeOperationName(text: string): string {
  let name = splitWords(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!/^[a-z]/.test(name)) name = name === "" ? "op" : `op_${name}`;
  return name.slice(0, MAX_TOOL_NAME_LENGTH).replace(/_+$/, "");
}

/**
 * `_` between words of a camel-cased name, in one pass: before a capital that follows a small
 * letter or a digit (`getPet` -> `get_Pet`), and before the last capital of a run that a small
 * letter follows (`HTTPServer` -> `HTTP_Server`). The two regexes this replaces
 * (`/([a-z0-9])([A-Z])/g`, `/([A-Z]+)([A-Z][a-z])/g`) did the same, but the second retried from
 * every capital of a long run: quadratic on an operationId of capitals.
 */
function splitWords(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    const before = text[i - 1] ?? "";
    if (
      isCapital(c) &&
      i > 0 &&
      (isSmall(before) || isDigit(before) || (isCapital(before) && isSmall(text[i + 1] ?? "")))
    )
      out += "_";
    out += c;
  }
  return out;
}

const isCapital = (c: string) => c >= "A" && c <= "Z";
const isSmall = (c: string) => c >= "a" && c <= "z";
const isDigit = (c: string) => c >= "0" && c <= "9";

/** The name an operation gets before collisions are settled. */
export function operationToolName(op: { operationId?: string; method: string; path: string }): string {
  if (op.operationId !== undefined && op.operationId.trim() !== "") return normalizeOperationName(op.operationId);
  return normalizeOperationName(`${op.method} ${op.path.replace(/[{}]/g, "")}`);
}

/**
 * Names every operation, deterministically whatever the document's order:
 * among operations whose names collide, the first by `METHOD path` keeps the
 * plain name and the others get `_2`, `_3`... (the first suffix not taken).
 * Returns the names in the order of `ops`.
 */
export function nameOperations(ops: readonly { operationId?: string; method: string; path: string }[]): string[] {
  const keyed = ops.map((op, index) => ({
    index,
    key: `${op.method.toUpperCase()} ${op.path}`,
    base: operationToolName(op),
  }));
  const order = [...keyed].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index));
  const taken = new Set(keyed.map((k) => k.base));
  const seen = new Set<string>();
  const names: string[] = new Array(ops.length);
  for (const k of order) {
    if (!seen.has(k.base)) {
      seen.add(k.base);
      names[k.index] = k.base;
      continue;
    }
    let n = 2;
    let candidate = suffixed(k.base, n);
    while (taken.has(candidate)) candidate = suffixed(k.base, ++n);
    taken.add(candidate);
    names[k.index] = candidate;
  }
  return names;
}

function suffixed(base: string, n: number): string {
  const tail = `_${n}`;
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - tail.length)}${tail}`;
}
