/**
 * What a provider would reject in a tool's parameters schema, as problems
 * with a path and a fix hint:
 * `parameters.properties.filters: Gemini does not accept additionalProperties (remove it, or set model.strict: true to have it removed from what is sent)`.
 * Pure: the rules are data (one table per dialect), checked node by node.
 */
import { DIALECT_LABELS, type Dialect } from "./dialect";

/** One thing the provider would reject. `message` is the whole line (path, what, hint). */
export interface DialectProblem {
  path: string;
  problem: string;
  hint: string;
  message: string;
}

const COMBINATORS = ["anyOf", "oneOf", "allOf", "not"];
const REFS = ["$ref", "$defs", "definitions"];
/** Keywords OpenAI's strict mode refuses (its documented subset has none of them). */
const OPENAI_STRICT_UNSUPPORTED = [
  "minLength",
  "maxLength",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "default",
  "patternProperties",
  "propertyNames",
  "if",
  "then",
  "else",
  "allOf",
  "oneOf",
  "not",
];
/** The string formats OpenAI's strict mode accepts. */
const OPENAI_STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);
/** Keywords Gemini's function declarations (an OpenAPI 3.0 schema subset) refuse. */
const GEMINI_UNSUPPORTED = [
  "additionalProperties",
  "$schema",
  ...REFS,
  ...COMBINATORS,
  "const",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "uniqueItems",
  "examples",
  "$comment",
  "patternProperties",
  "if",
  "then",
  "else",
];
const GEMINI_FORMATS = new Set(["enum", "date-time"]);
/** OpenAI's strict mode: the nesting and size it allows. */
export const OPENAI_STRICT_BOUNDS = { maxDepth: 10, maxProperties: 5000 };
const MAX_PROBLEMS = 20;

/** Every problem `schema` (found at `rootPath`) has for `dialect`; [] when the provider would accept it. Never throws. */
export function checkDialect(schema: unknown, dialect: Dialect, rootPath = "parameters"): DialectProblem[] {
  const out: DialectProblem[] = [];
  const label = DIALECT_LABELS[dialect];
  const add = (path: string, problem: string, hint: string) => {
    if (out.length < MAX_PROBLEMS) out.push({ path, problem, hint, message: `${path}: ${label} ${problem} (${hint})` });
  };
  if (!isObject(schema) || schema.type !== "object") {
    add(rootPath, 'requires the top level to be an object schema (type: "object")', "wrap the parameters in an object");
    return out;
  }
  const state = { properties: 0 };
  walk(schema, rootPath, 0, dialect, add, state);
  return out;
}

type Add = (path: string, problem: string, hint: string) => void;

function walk(
  node: unknown,
  path: string,
  depth: number,
  dialect: Dialect,
  add: Add,
  state: { properties: number },
): void {
  if (!isObject(node)) return;
  const strictHint = "set model.strict: true to have Insika compile it for the provider";
  switch (dialect) {
    case "gemini":
      for (const k of GEMINI_UNSUPPORTED) {
        if (Object.hasOwn(node, k)) add(path, `does not accept ${k}`, `remove it, or ${strictHint}`);
      }
      if (Array.isArray(node.type))
        add(path, "does not accept a list of types", "use one type (and nullable: true for null)");
      if (node.type === "string" && typeof node.format === "string" && !GEMINI_FORMATS.has(node.format))
        add(
          path,
          `accepts only the string formats enum and date-time, not '${node.format}'`,
          `remove format, or ${strictHint}`,
        );
      if (
        node.type === "object" &&
        depth > 0 &&
        (!isObject(node.properties) || Object.keys(node.properties).length === 0)
      )
        add(
          path,
          "requires an object to declare at least one property",
          "declare its properties, or make it a string holding JSON",
        );
      break;
    case "openai-strict":
      if (depth > OPENAI_STRICT_BOUNDS.maxDepth)
        add(path, `allows at most ${OPENAI_STRICT_BOUNDS.maxDepth} levels of nesting`, "flatten the schema");
      for (const k of OPENAI_STRICT_UNSUPPORTED) {
        if (Object.hasOwn(node, k)) add(path, `does not accept ${k}`, `remove it, or ${strictHint}`);
      }
      if (typeof node.format === "string" && !OPENAI_STRICT_FORMATS.has(node.format))
        add(path, `does not accept the format '${node.format}'`, `remove it, or ${strictHint}`);
      if (depth === 0 && Object.hasOwn(node, "anyOf"))
        add(path, "does not accept anyOf at the top level", "use an object");
      if (isObjectType(node)) {
        if (node.additionalProperties !== false)
          add(path, "requires additionalProperties: false on every object", `add it, or ${strictHint}`);
        const props = isObject(node.properties) ? Object.keys(node.properties) : [];
        const required = new Set(Array.isArray(node.required) ? node.required : []);
        const optional = props.filter((p) => !required.has(p));
        if (optional.length > 0)
          add(
            path,
            `requires every property to be required (optional: ${optional.slice(0, 5).join(", ")})`,
            `make them required and nullable, or ${strictHint}`,
          );
        state.properties += props.length;
        if (
          state.properties > OPENAI_STRICT_BOUNDS.maxProperties &&
          state.properties - props.length <= OPENAI_STRICT_BOUNDS.maxProperties
        )
          add(path, `allows at most ${OPENAI_STRICT_BOUNDS.maxProperties} properties in one schema`, "split the tool");
      }
      break;
    case "openai":
    case "openai-compatible":
      // Accepted without strict mode; only the top level is constrained (checked above).
      if (depth === 0)
        for (const k of COMBINATORS)
          if (Object.hasOwn(node, k))
            add(path, `does not accept ${k} at the top level`, "use an object with properties");
      break;
    case "anthropic":
      if (depth === 0)
        for (const k of COMBINATORS)
          if (Object.hasOwn(node, k))
            add(path, `does not accept ${k} at the top level of input_schema`, "use an object with properties");
      break;
  }
  if (isObject(node.properties)) {
    for (const [name, child] of Object.entries(node.properties))
      walk(child, `${path}.properties.${name}`, depth + 1, dialect, add, state);
  }
  if (isObject(node.items)) walk(node.items, `${path}.items`, depth + 1, dialect, add, state);
  if (isObject(node.additionalProperties))
    walk(node.additionalProperties, `${path}.additionalProperties`, depth + 1, dialect, add, state);
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    const list = node[k];
    if (Array.isArray(list)) list.forEach((b, i) => walk(b, `${path}.${k}[${i}]`, depth + 1, dialect, add, state));
  }
}

function isObjectType(node: Record<string, unknown>): boolean {
  return node.type === "object" || (Array.isArray(node.type) && node.type.includes("object"));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
