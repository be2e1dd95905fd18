/**
 * Call-time argument validation (DESIGN D6).
 *
 * Structure is strict; the only tolerance is for scalars that arrive in their
 * lossless string form ("2" for an integer, "true" for a boolean), because
 * models do that and nothing is lost. That tolerance is applied to a
 * throw-away *view* used for checking only: the arguments the request
 * carries are exactly what the model sent.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { linearRegExpEngine } from "./linear-regexp";
import { checkSafeSchema } from "./safe-schema";
import { uniqueItemsKeyword } from "./unique-items";
import { errorMessage } from "@/lib/errors";

/** `ok: true` = send the arguments exactly as received; otherwise `error` is for the model. */
export type ValidateArgumentsResult = { ok: true } | { ok: false; error: string };

/** At most this many problems are reported, joined with "; ". */
export const MAX_ARGUMENT_PROBLEMS = 5;
/** A missing/unknown group names at most this many, then counts the rest (`and N more`). */
export const MAX_LISTED_NAMES = 20;

// One instance for the process: a new Ajv costs ~9 ms, a compile ~2 ms.
// Formats are annotations here (no format plugin is allowed in lib/tools),
// and strict mode is off because checkSafeSchema already polices keywords.
// `pattern` runs on the linear-time engine: model input can never stall the process.
const ajv = new Ajv({
  allErrors: true,
  strict: false,
  validateFormats: false,
  logger: false,
  code: { regExp: linearRegExpEngine },
});
// Ajv's uniqueItems compares pairwise; ours is linear (the array is the model's).
ajv.removeKeyword("uniqueItems");
ajv.addKeyword(uniqueItemsKeyword);

type Compiled = { ok: true; validate: ValidateFunction } | { ok: false; error: string };

// Keyed by the schema object: a tool version's schema is compiled once and the
// entry dies with it. Schemas are treated as immutable once validated.
const compiled = new WeakMap<object, Compiled>();

const INTEGER_FORM = /^-?(?:0|[1-9][0-9]*)$/;
const DECIMAL_FORM = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Checks model-sent `args` against a tool's `parameters` schema.
 * `{ ok: true }` means the call may become a request with `args` unchanged.
 * Otherwise `error` names each problem's path (`items[0].query: expected a
 * string, got a number`), groups missing required keys
 * (`missing required parameter(s): a, b`), and holds at most 5 problems joined
 * by "; ". A schema outside the safe subset is reported, not trusted.
 * Never throws, whatever `schema` and `args` are.
 */
export function validateArguments(schema: unknown, args: unknown): ValidateArgumentsResult {
  try {
    const c = getCompiled(schema);
    if (!c.ok) return c;
    if (!isPlainObject(args)) {
      return { ok: false, error: `arguments must be a JSON object, got ${describe(args)}` };
    }
    const view = losslessView(schema, args);
    if (c.validate(view)) return { ok: true };
    return { ok: false, error: formatErrors(c.validate.errors ?? [], view) };
  } catch (e) {
    // Only pathological values (cycles under uniqueItems, throwing getters)
    // get here; the call is refused rather than sent unchecked.
    return { ok: false, error: `arguments could not be validated: ${errorMessage(e)}` };
  }
}

function getCompiled(schema: unknown): Compiled {
  if (schema === null || typeof schema !== "object") {
    return { ok: false, error: "the tool's parameters schema is not an object" };
  }
  const hit = compiled.get(schema);
  if (hit) return hit;
  let entry: Compiled;
  const problems = checkSafeSchema(schema);
  if (problems.length > 0) {
    entry = { ok: false, error: `the tool's parameters schema is not valid: ${problems.slice(0, 3).join("; ")}` };
  } else {
    // `$schema` may name a draft this Ajv class does not bundle; it is an
    // annotation for providers, so the compiled copy leaves it out.
    const { $schema: _ignored, ...copy } = schema as Record<string, unknown>;
    try {
      entry = { ok: true, validate: ajv.compile(copy) };
    } catch (e) {
      entry = { ok: false, error: `the tool's parameters schema cannot be compiled: ${errorMessage(e)}` };
    } finally {
      // Ajv also caches by schema object; our WeakMap is the cache, so drop
      // Ajv's entry to let old tool versions be collected.
      ajv.removeSchema(copy);
    }
  }
  compiled.set(schema, entry);
  return entry;
}

/**
 * A copy of `value` where lossless scalar strings under number/integer/boolean
 * schemas are replaced by the scalar, so enum/minimum/... see the number.
 * Containers are copied only when something below them changed.
 */
function losslessView(schema: unknown, value: unknown): unknown {
  if (!isPlainObject(schema)) return value;
  switch (schema.type) {
    case "integer":
      return typeof value === "string" && INTEGER_FORM.test(value) ? finiteOr(value) : value;
    case "number":
      return typeof value === "string" && DECIMAL_FORM.test(value) ? finiteOr(value) : value;
    case "boolean":
      return value === "true" ? true : value === "false" ? false : value;
    case "array": {
      if (!Array.isArray(value)) return value;
      let out: unknown[] | null = null;
      value.forEach((item, i) => {
        const v = losslessView(schema.items, item);
        if (v !== item) (out ??= value.slice())[i] = v;
      });
      return out ?? value;
    }
    case "object": {
      const props = schema.properties;
      if (!isPlainObject(value) || !isPlainObject(props)) return value;
      let out: Record<string, unknown> | null = null;
      for (const key of Object.keys(props)) {
        if (!hasOwn(value, key)) continue;
        const v = losslessView(props[key], value[key]);
        // defineProperty, not assignment: a key is data, never a prototype setter.
        if (v !== value[key])
          Object.defineProperty((out ??= { ...value }), key, {
            value: v,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      return out ?? value;
    }
    default:
      return value;
  }
}

function finiteOr(text: string): unknown {
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

function formatErrors(errors: ErrorObject[], root: unknown): string {
  const messages: string[] = [];
  // Missing and unknown keys are grouped per object so one message lists them all.
  // A Set per group: an object with 100,000 unknown keys must not cost a scan per key.
  const grouped = new Map<string, { index: number; names: Set<string> }>();
  for (const e of errors) {
    const { path, value } = locate(e.instancePath, root);
    if (e.keyword === "required" || e.keyword === "additionalProperties") {
      const name = String(e.keyword === "required" ? e.params.missingProperty : e.params.additionalProperty);
      const key = `${e.keyword}\u0000${path}`;
      const g = grouped.get(key);
      if (g) {
        g.names.add(name);
        continue;
      }
      grouped.set(key, { index: messages.length, names: new Set([name]) });
      messages.push("");
      continue;
    }
    messages.push(`${path === "" ? "arguments" : path}: ${describeError(e, value)}`);
  }
  for (const [key, g] of grouped) {
    const [keyword, path] = key.split("\u0000") as [string, string];
    const listed = [...g.names].slice(0, MAX_LISTED_NAMES).join(", ");
    const more = g.names.size - MAX_LISTED_NAMES;
    const list = more > 0 ? `${listed} and ${more} more` : listed;
    messages[g.index] =
      keyword === "required"
        ? `${path === "" ? "" : `${path}: `}missing required parameter(s): ${list}`
        : path === ""
          ? `unknown parameter(s): ${list}`
          : `${path}: unknown field(s): ${list}`;
  }
  const unique = [...new Set(messages)];
  return unique.slice(0, MAX_ARGUMENT_PROBLEMS).join("; ");
}

// Turns a JSON pointer into `a.b[0]["odd key"]`, using the data to tell an
// array index from an object key that happens to be digits.
function locate(pointer: string, root: unknown): { path: string; value: unknown } {
  if (pointer === "") return { path: "", value: root };
  let path = "";
  let cur: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(cur)) {
      path += `[${seg}]`;
      cur = cur[Number(seg)];
    } else {
      path += IDENT.test(seg) ? (path === "" ? seg : `.${seg}`) : `[${JSON.stringify(seg)}]`;
      cur = isPlainObject(cur) && hasOwn(cur, seg) ? cur[seg] : undefined;
    }
  }
  return { path, value: cur };
}

function describeError(e: ErrorObject, value: unknown): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "type": {
      const expected = String(p.type);
      let got = describe(value);
      if (expected === "integer" && typeof value === "number") got = `the non-integer number ${value}`;
      else if (typeof value === "string" && ["integer", "number", "boolean"].includes(expected)) {
        got = `the string ${JSON.stringify(truncate(value))}`;
      }
      return `expected ${withArticle(expected)}, got ${got}`;
    }
    case "enum":
      return `must be one of ${listValues(p.allowedValues)}`;
    case "const":
      return `must be ${truncate(JSON.stringify(p.allowedValue) ?? "")}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case "multipleOf":
      return `must be a multiple of ${String(p.multipleOf)}`;
    case "minLength":
      return `must be at least ${String(p.limit)} characters long`;
    case "maxLength":
      return `must be at most ${String(p.limit)} characters long`;
    case "pattern":
      return `must match the pattern ${truncate(String(p.pattern))}`;
    case "minItems":
      return `must have at least ${String(p.limit)} item(s)`;
    case "maxItems":
      return `must have at most ${String(p.limit)} item(s)`;
    case "uniqueItems":
      return `must not contain duplicates (items ${String(p.j)} and ${String(p.i)} are equal)`;
    case "minProperties":
      return `must have at least ${String(p.limit)} field(s)`;
    case "maxProperties":
      return `must have at most ${String(p.limit)} field(s)`;
    default:
      return e.message ?? `fails '${e.keyword}'`;
  }
}

function listValues(values: unknown): string {
  if (!Array.isArray(values)) return "the allowed values";
  const shown = values.slice(0, 10).map((v) => truncate(JSON.stringify(v) ?? String(v)));
  return shown.join(", ") + (values.length > 10 ? ", …" : "");
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return "an array";
  return withArticle(typeof v);
}

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}
