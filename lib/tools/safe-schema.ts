/**
 * The safe subset of JSON Schema that `parameters` may use.
 *
 * `parameters` reaches every provider verbatim, and providers disagree about
 * everything beyond plain typed trees: combinators, references and
 * conditionals are accepted by some, silently dropped by others, rejected by
 * the rest. So the subset is an allowlist: typed nodes, a few annotation and
 * validation keywords, nothing that makes a schema depend on another part of
 * itself. Argument validation (validate-arguments.ts) relies on this too: with
 * no combinators, a value's schema is found by walking properties/items.
 */
import { compileLinearRegExp, MAX_PATTERN_PROGRAM_SIZE } from "./linear-regexp";
import { patternProgramSize } from "./pattern-program-size";
import { errorMessage } from "@/lib/errors";

/** The node types the subset allows. */
export const SAFE_SCHEMA_TYPES = ["object", "array", "string", "number", "integer", "boolean"] as const;
type SafeType = (typeof SAFE_SCHEMA_TYPES)[number];

/** Bounds that keep hostile schemas cheap to check, compile and send. */
export const SAFE_SCHEMA_LIMITS = { maxDepth: 32, maxNodes: 2000, maxProblems: 20, maxPatternLength: 1000 };

// Keywords that are real JSON Schema but outside the subset; refused with the
// provider reason so the operator knows it is a policy, not a typo.
const UNSUPPORTED = new Set([
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "$ref",
  "$defs",
  "definitions",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "dependentRequired",
  "dependencies",
  "patternProperties",
  "prefixItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "propertyNames",
  "additionalItems",
  "$id",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "$vocabulary",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
]);

const ANY_TYPE = new Set(["type", "description", "title", "$comment", "enum", "const", "default", "examples"]);
const BY_TYPE: Record<SafeType, ReadonlySet<string>> = {
  number: new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
  integer: new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
  string: new Set(["minLength", "maxLength", "pattern", "format"]),
  array: new Set(["items", "minItems", "maxItems", "uniqueItems"]),
  object: new Set(["properties", "required", "additionalProperties", "minProperties", "maxProperties"]),
  boolean: new Set(),
};
// Where each type-specific keyword belongs, for the "applies only to" message.
const KEYWORD_HOME = new Map<string, string>([
  ...["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].map(
    (k) => [k, "number/integer"] as [string, string],
  ),
  ...[...BY_TYPE.string].map((k) => [k, "string"] as [string, string]),
  ...[...BY_TYPE.array].map((k) => [k, "array"] as [string, string]),
  ...[...BY_TYPE.object].map((k) => [k, "object"] as [string, string]),
]);

const NUMERIC = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Lists what keeps `schema` out of the safe subset; an empty list means safe.
 * Each problem starts with the node's path below `rootPath` (e.g.
 * `parameters.properties.x: 'oneOf' is not allowed (not every provider supports it)`).
 * The top level must be `type: "object"`. Depth, node count and the number of
 * problems reported are bounded. Never throws.
 */
export function checkSafeSchema(schema: unknown, rootPath = "parameters"): string[] {
  const problems: string[] = [];
  const state = { nodes: 0, stopped: false, patternSize: 0 };
  try {
    if (isPlainObject(schema) && typeof schema.type === "string" && schema.type !== "object") {
      problems.push(`${rootPath}: the top level must have type "object"`);
    }
    checkNode(schema, rootPath, 0, true, problems, state);
  } catch (e) {
    // Only a hostile value (a throwing getter, a proxy) gets here.
    problems.push(`${rootPath}: the schema could not be read (${errorMessage(e)})`);
  }
  return problems.slice(0, SAFE_SCHEMA_LIMITS.maxProblems);
}

/** `patternSize`: the estimated program size of the patterns seen so far (one budget per schema). */
type State = { nodes: number; stopped: boolean; patternSize: number };

function checkNode(
  node: unknown,
  path: string,
  depth: number,
  isRoot: boolean,
  problems: string[],
  state: State,
): void {
  if (state.stopped || problems.length >= SAFE_SCHEMA_LIMITS.maxProblems) return;
  state.nodes += 1;
  if (state.nodes > SAFE_SCHEMA_LIMITS.maxNodes) {
    problems.push(`${path}: the schema is too large (more than ${SAFE_SCHEMA_LIMITS.maxNodes} nodes)`);
    state.stopped = true;
    return;
  }
  if (depth > SAFE_SCHEMA_LIMITS.maxDepth) {
    problems.push(`${path}: the schema is nested too deeply (more than ${SAFE_SCHEMA_LIMITS.maxDepth} levels)`);
    state.stopped = true;
    return;
  }
  if (!isPlainObject(node)) {
    problems.push(`${path}: must be a JSON Schema object, got ${describe(node)}`);
    return;
  }
  const add = (msg: string) => problems.push(`${path}: ${msg}`);

  const type = node.type;
  let safeType: SafeType | null = null;
  if (type === undefined) add("'type' is required");
  else if (Array.isArray(type)) add("'type' must be a single type name, not a list");
  else if (typeof type !== "string" || !(SAFE_SCHEMA_TYPES as readonly string[]).includes(type)) {
    add(`'type' must be one of ${SAFE_SCHEMA_TYPES.join(", ")}`);
  } else safeType = type as SafeType;

  for (const key of Object.keys(node)) {
    if (UNSUPPORTED.has(key)) add(`'${key}' is not allowed (not every provider supports it)`);
    else if (key === "$schema") {
      if (!isRoot) add("'$schema' is allowed only at the top level");
      else if (typeof node.$schema !== "string") add("'$schema' must be a string");
    } else if (ANY_TYPE.has(key)) continue;
    else if (KEYWORD_HOME.has(key)) {
      if (safeType !== null && !BY_TYPE[safeType].has(key)) {
        add(`'${key}' applies only to type ${KEYWORD_HOME.get(key)}`);
      }
    } else add(`'${key}' is not a supported JSON Schema keyword`);
  }

  checkAnnotations(node, add);
  checkLimits(node, add);
  checkPattern(node, state, add);
  if (safeType === "array") checkArray(node, path, depth, problems, state, add);
  if (safeType === "object") checkObject(node, path, depth, problems, state, add);
}

function checkAnnotations(node: Record<string, unknown>, add: (m: string) => void): void {
  for (const k of ["description", "title", "$comment", "format"]) {
    if (has(node, k) && typeof node[k] !== "string") add(`'${k}' must be a string`);
  }
  if (has(node, "enum") && (!Array.isArray(node.enum) || node.enum.length === 0)) {
    add("'enum' must be a non-empty list");
  }
  if (has(node, "examples") && !Array.isArray(node.examples)) add("'examples' must be a list");
}

function checkLimits(node: Record<string, unknown>, add: (m: string) => void): void {
  for (const k of NUMERIC) {
    if (has(node, k) && !isFiniteNumber(node[k])) add(`'${k}' must be a number`);
  }
  if (has(node, "multipleOf") && !(isFiniteNumber(node.multipleOf) && node.multipleOf > 0)) {
    add("'multipleOf' must be a number greater than 0");
  }
  for (const k of COUNTS) {
    const v = node[k];
    if (has(node, k) && !(typeof v === "number" && Number.isSafeInteger(v) && v >= 0)) {
      add(`'${k}' must be a non-negative integer`);
    }
  }
  if (has(node, "uniqueItems") && typeof node.uniqueItems !== "boolean") add("'uniqueItems' must be true or false");
  if (has(node, "additionalProperties") && typeof node.additionalProperties !== "boolean") {
    add("'additionalProperties' must be true or false (a schema there is not supported)");
  }
}

function checkPattern(node: Record<string, unknown>, state: State, add: (m: string) => void): void {
  if (!has(node, "pattern")) return;
  const p = node.pattern;
  if (typeof p !== "string") add("'pattern' must be a string");
  else if (p.length > SAFE_SCHEMA_LIMITS.maxPatternLength) {
    add(`'pattern' is longer than ${SAFE_SCHEMA_LIMITS.maxPatternLength} characters`);
  } else {
    // Compiling costs in proportion to the expanded program: one budget for the whole schema,
    // so many patterns each under the per-pattern cap cannot add up to a stall.
    state.patternSize += patternProgramSize(p).size;
    if (state.patternSize > MAX_PATTERN_PROGRAM_SIZE) {
      add(
        `'pattern' brings the patterns of this schema to about ${state.patternSize} regex instructions once their repeat counts are applied, over the limit of ${MAX_PATTERN_PROGRAM_SIZE} per schema`,
      );
      return;
    }
    // Patterns run on the linear-time engine (a backtracking one can be frozen by one
    // call); what it cannot run is refused here, at save time, never at call time.
    const compiled = compileLinearRegExp(p);
    if (!compiled.ok) add(`'pattern' ${compiled.error}: ${p}`);
  }
}

function checkArray(
  node: Record<string, unknown>,
  path: string,
  depth: number,
  problems: string[],
  state: State,
  add: (m: string) => void,
): void {
  if (!has(node, "items")) add("an array needs 'items' (the schema of its elements)");
  else if (Array.isArray(node.items)) add("'items' must be a single schema, not a list");
  else checkNode(node.items, `${path}.items`, depth + 1, false, problems, state);
}

function checkObject(
  node: Record<string, unknown>,
  path: string,
  depth: number,
  problems: string[],
  state: State,
  add: (m: string) => void,
): void {
  let names: string[] = [];
  if (has(node, "properties")) {
    const props = node.properties;
    if (!isPlainObject(props)) add("'properties' must be an object");
    else {
      names = Object.keys(props);
      for (const name of names) {
        const childPath = `${path}.properties${IDENT.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`}`;
        if (name === "__proto__") problems.push(`${childPath}: '__proto__' is not a usable property name`);
        else checkNode(props[name], childPath, depth + 1, false, problems, state);
      }
    }
  }
  if (has(node, "required")) {
    const req = node.required;
    if (!Array.isArray(req) || req.some((r) => typeof r !== "string")) {
      add("'required' must be a list of property names");
      return;
    }
    const declared = new Set(names);
    const seen = new Set<string>();
    for (const r of req as string[]) {
      if (seen.has(r)) add(`'required' lists '${r}' twice`);
      else if (!declared.has(r)) add(`'required' names '${r}', which is not in 'properties'`);
      seen.add(r);
    }
  }
}

function has(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return "a list";
  return `a ${typeof v}`;
}
