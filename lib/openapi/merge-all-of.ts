/**
 * `allOf` -> one schema, when the branches can be combined without changing
 * what they accept: the same type (or none), properties united (a property in
 * several branches merged the same way), `required` united, other keywords
 * equal wherever they appear. Composition is how most OpenAPI documents
 * extend a model (`allOf: [Pet, {properties: {id}}]`); the safe subset has no
 * `allOf`, so a mergeable one is rewritten and any other is refused.
 */
import { isDeepStrictEqual } from "node:util";

export type MergeAllOfResult = { ok: true; schema: Record<string, unknown> } | { ok: false; problem: string };

/** Annotations: the first branch that has one gives it (they do not constrain). */
const FIRST_WINS = new Set(["description", "title", "example", "examples", "default", "deprecated", "externalDocs"]);
const MAX_BRANCHES = 64;

/** Merges `node.allOf` (nested ones too) with `node`'s own keywords. Never throws. */
export function mergeAllOf(node: Record<string, unknown>): MergeAllOfResult {
  const branches: Record<string, unknown>[] = [];
  const flat = flatten(node, branches, 0);
  if (flat !== null) return { ok: false, problem: flat };
  const out: Record<string, unknown> = {};
  for (const branch of branches) {
    for (const [key, value] of Object.entries(branch)) {
      const problem = mergeKeyword(out, key, value);
      if (problem !== null) return { ok: false, problem };
    }
  }
  return { ok: true, schema: out };
}

// The node's own keywords first, then each branch's, depth first.
function flatten(node: Record<string, unknown>, into: Record<string, unknown>[], depth: number): string | null {
  if (depth > 16 || into.length > MAX_BRANCHES) return "'allOf' is nested too deeply to merge";
  const own = { ...node };
  delete own.allOf;
  into.push(own);
  if (!Array.isArray(node.allOf)) return null;
  for (const branch of node.allOf) {
    if (!isObject(branch)) return "'allOf' has a branch that is not a schema object";
    if (typeof branch.$ref === "string") {
      return `'allOf' has a '$ref' ${JSON.stringify(branch.$ref.slice(0, 200))} that could not be inlined (circular or external)`;
    }
    const problem = flatten(branch, into, depth + 1);
    if (problem !== null) return problem;
  }
  return null;
}

function mergeKeyword(out: Record<string, unknown>, key: string, value: unknown): string | null {
  if (!Object.hasOwn(out, key)) {
    define(out, key, key === "properties" && isObject(value) ? { ...value } : value);
    return null;
  }
  const current = out[key];
  if (FIRST_WINS.has(key) || key.startsWith("x-")) return null;
  if (key === "type") {
    const a = withoutNull(current);
    const b = withoutNull(value);
    if (isDeepStrictEqual(a, b)) return null;
    return `'allOf' combines type ${JSON.stringify(a)} with ${JSON.stringify(b)}, which no value can be`;
  }
  if (key === "required") {
    const list = [...(Array.isArray(current) ? current : []), ...(Array.isArray(value) ? value : [])];
    out.required = [...new Set(list)];
    return null;
  }
  if (key === "additionalProperties") {
    // Closed wins: a closed branch is the one that says what may appear.
    if (current === false || value === false) out.additionalProperties = false;
    return null;
  }
  if (key === "nullable") {
    out.nullable = current === true && value === true;
    return null;
  }
  if (key === "properties" && isObject(current) && isObject(value)) {
    for (const [name, schema] of Object.entries(value)) {
      if (!Object.hasOwn(current, name) || isDeepStrictEqual(current[name], schema)) {
        define(current, name, schema);
        continue;
      }
      const a = current[name];
      if (!isObject(a) || !isObject(schema)) return `'allOf' defines property '${name}' twice, differently`;
      const merged = mergeAllOf({ allOf: [a, schema] });
      if (!merged.ok) return `'allOf' defines property '${name}' twice, and they do not merge: ${merged.problem}`;
      define(current, name, merged.schema);
    }
    return null;
  }
  if (isDeepStrictEqual(current, value)) return null;
  return `'allOf' branches disagree on '${key}' (${short(current)} and ${short(value)}), so they cannot be merged`;
}

function withoutNull(type: unknown): unknown {
  if (!Array.isArray(type)) return type;
  const real = type.filter((t) => t !== "null");
  return real.length === 1 ? real[0] : real;
}

function short(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function define(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
