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
  let name = text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!/^[a-z]/.test(name)) name = name === "" ? "op" : `op_${name}`;
  return name.slice(0, MAX_TOOL_NAME_LENGTH).replace(/_+$/, "");
}

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
