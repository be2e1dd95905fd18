/**
 * An OpenAPI schema (already dereferenced) -> a schema in the safe subset
 * (lib/tools/safe-schema.ts), or the constructs that keep it out. OpenAPI
 * writes the same ideas several ways (3.0's `nullable`, 3.1's `type: [x,
 * "null"]`, boolean `exclusiveMinimum`, `allOf` for composition); those are
 * rewritten. What the subset cannot say (`oneOf`, `anyOf` of real
 * alternatives, a `$ref` left because it is circular or external, a tuple) is
 * a problem naming the construct and its path, never guessed at.
 */
import { mergeAllOf } from "./merge-all-of";

/** The converted schema, or every problem found (each `path: what`). */
export type ToSafeSchemaResult = { ok: true; schema: Record<string, unknown> } | { ok: false; problems: string[] };

/** Bounds the walk: a dereferenced document shares nodes, so a small text can expand hugely. */
export const TO_SAFE_SCHEMA_LIMITS = { maxNodes: 5000, maxDepth: 40, maxProblems: 10 };

const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean"]);
/** Annotations OpenAPI adds that no provider needs: dropped. */
const DROPPED = new Set([
  "nullable",
  "readOnly",
  "writeOnly",
  "example",
  "deprecated",
  "xml",
  "externalDocs",
  "discriminator",
  "$schema",
  "$id",
  "$comment",
  "contentMediaType",
  "contentEncoding",
]);
const ANY = ["description", "title", "default", "const"];
const BY_TYPE: Record<string, readonly string[]> = {
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  string: ["minLength", "maxLength", "pattern", "format"],
  array: ["minItems", "maxItems", "uniqueItems"],
  object: ["minProperties", "maxProperties"],
  boolean: [],
};
/** Keywords the walk handles itself. */
const HANDLED = new Set([
  "type",
  "enum",
  "examples",
  "items",
  "properties",
  "required",
  "additionalProperties",
  "allOf",
]);
const ALL_TYPED = new Set(Object.values(BY_TYPE).flat());

interface Walk {
  nodes: number;
  problems: string[];
  /** "request": readOnly properties are left out (a client never sends them). */
  direction: "request";
}

/**
 * Converts `schema` found at `path` (e.g. `parameters.properties.filter`).
 * Never throws; the input is not modified.
 */
export function toSafeSchema(schema: unknown, path: string): ToSafeSchemaResult {
  const walk: Walk = { nodes: 0, problems: [], direction: "request" };
  const out = convert(schema, path, 0, walk);
  if (walk.problems.length > 0 || out === null) {
    return { ok: false, problems: walk.problems.length > 0 ? walk.problems : [`${path}: could not be converted`] };
  }
  return { ok: true, schema: out };
}

function convert(node: unknown, path: string, depth: number, walk: Walk): Record<string, unknown> | null {
  const fail = (what: string): null => {
    if (walk.problems.length < TO_SAFE_SCHEMA_LIMITS.maxProblems) walk.problems.push(`${path}: ${what}`);
    return null;
  };
  walk.nodes += 1;
  if (walk.nodes > TO_SAFE_SCHEMA_LIMITS.maxNodes)
    return fail(`the schema is too large (more than ${TO_SAFE_SCHEMA_LIMITS.maxNodes} nodes once inlined)`);
  if (depth > TO_SAFE_SCHEMA_LIMITS.maxDepth)
    return fail(`the schema is nested too deeply (more than ${TO_SAFE_SCHEMA_LIMITS.maxDepth} levels)`);
  if (node === true || (isObject(node) && Object.keys(node).length === 0))
    return fail("the schema allows any value (no 'type'), which the safe subset cannot say");
  if (!isObject(node)) return fail("is not a schema object");
  if (typeof node.$ref === "string")
    return fail(`'$ref' ${JSON.stringify(node.$ref.slice(0, 200))} could not be inlined (circular or external)`);

  let source = node;
  if (Array.isArray(node.allOf)) {
    const merged = mergeAllOf(node);
    if (!merged.ok) return fail(merged.problem);
    source = merged.schema;
  }
  const alternative = collapseNullAlternative(source);
  if (alternative === "unsupported") {
    const kw = Array.isArray(source.oneOf) ? "oneOf" : "anyOf";
    return fail(`'${kw}' is not supported (the safe subset has no alternatives; not every provider accepts them)`);
  }
  if (alternative !== null) return convert(alternative, path, depth, walk);

  const type = pickType(source);
  if (type === "list") return fail("'type' lists several types, which the safe subset cannot say");
  if (type === null) return fail("has no 'type' (a value of any type), which the safe subset cannot say");

  const out: Record<string, unknown> = { type };
  for (const [key, value] of Object.entries(source)) {
    if (key === "type" || HANDLED.has(key) || DROPPED.has(key) || key.startsWith("x-")) continue;
    if (ANY.includes(key)) define(out, key, value);
    else if (BY_TYPE[type]?.includes(key)) define(out, key, value);
    else if (ALL_TYPED.has(key))
      continue; // a keyword of another type constrains nothing here
    else if (key === "oneOf" || key === "anyOf")
      continue; // handled above (null alternatives)
    else return fail(`'${key}' is not supported (outside the safe subset of JSON Schema)`);
  }
  if (source.const === null) delete out.const;
  if (source.default === null) delete out.default;
  fixExclusiveBounds(source, out);
  if (type !== "string") delete out.format;
  if (Array.isArray(source.enum)) {
    const values = source.enum.filter((v) => v !== null);
    if (values.length > 0) out.enum = values;
  }
  if (Array.isArray(source.examples)) out.examples = source.examples;

  if (type === "array") {
    if (Array.isArray(source.items)) return fail("'items' is a list (a tuple), which the safe subset cannot say");
    if (source.items === undefined) return fail("an array without 'items' (its elements' schema)");
    const items = convert(source.items, `${path}.items`, depth + 1, walk);
    if (items === null) return null;
    out.items = items;
  }
  if (type === "object") {
    const properties: Record<string, unknown> = {};
    const props = isObject(source.properties) ? source.properties : {};
    for (const [name, child] of Object.entries(props)) {
      if (isObject(child) && child.readOnly === true) continue;
      const converted = convert(child, `${path}.properties.${name}`, depth + 1, walk);
      if (converted !== null) define(properties, name, converted);
    }
    if (walk.problems.length > 0) return null;
    out.properties = properties;
    const required = Array.isArray(source.required)
      ? [...new Set(source.required.filter((r): r is string => typeof r === "string" && Object.hasOwn(properties, r)))]
      : [];
    if (required.length > 0) out.required = required;
    // A map's value schema has no place in the subset: it stays an open map.
    if (source.additionalProperties === false) out.additionalProperties = false;
    else if (source.additionalProperties !== undefined) out.additionalProperties = true;
  }
  return out;
}

/** `anyOf`/`oneOf` of one schema and `{type:"null"}` (3.1's nullable) -> that schema; real alternatives -> unsupported. */
function collapseNullAlternative(node: Record<string, unknown>): Record<string, unknown> | "unsupported" | null {
  const list = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : null;
  if (list === null) return null;
  const real = list.filter((b) => !(isObject(b) && b.type === "null"));
  if (real.length !== 1 || !isObject(real[0])) return "unsupported";
  const rest = { ...node };
  delete rest.oneOf;
  delete rest.anyOf;
  const merged = mergeAllOf({ allOf: [rest, real[0]] });
  return merged.ok ? merged.schema : "unsupported";
}

function pickType(node: Record<string, unknown>): string | null | "list" {
  const t = node.type;
  if (typeof t === "string") return TYPES.has(t) ? t : null;
  if (Array.isArray(t)) {
    const real = t.filter((x) => x !== "null");
    if (real.length === 1 && typeof real[0] === "string" && TYPES.has(real[0])) return real[0];
    return real.length === 0 ? null : "list";
  }
  if (t !== undefined) return null;
  if (isObject(node.properties) || node.additionalProperties !== undefined) return "object";
  if (node.items !== undefined) return "array";
  if (Array.isArray(node.enum) && node.enum.length > 0) {
    const values = node.enum.filter((v) => v !== null);
    if (values.length > 0 && values.every((v) => typeof v === "string")) return "string";
    if (values.length > 0 && values.every((v) => typeof v === "number")) return "number";
  }
  return null;
}

// OpenAPI 3.0 (JSON Schema draft 4): `exclusiveMinimum: true` qualifies `minimum`.
function fixExclusiveBounds(source: Record<string, unknown>, out: Record<string, unknown>): void {
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof source[flag] !== "boolean") continue;
    delete out[flag];
    if (source[flag] === true && typeof source[bound] === "number") {
      out[flag] = source[bound];
      delete out[bound];
    }
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Assigns as data (a key named `__proto__` stays a key, never the prototype). */
export function define(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
