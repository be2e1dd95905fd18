/**
 * Strict mode (`model.strict: true`): the parameters schema sent to the
 * provider is compiled to what its dialect accepts, and the stored schema
 * stays the operator's (arguments are still validated against it).
 *
 * - OpenAI strict (and an OpenAI-compatible endpoint in strict mode): every
 *   object closed (`additionalProperties: false`), every property required,
 *   an optional one made nullable (`type: [t, "null"]`, `null` added to an
 *   enum) so the model can still leave it out by sending null; keywords
 *   strict mode refuses are left out (our own validation still applies them).
 * - Anthropic: every object closed.
 * - Gemini: the keywords it refuses are left out; a type list becomes one
 *   type with `nullable: true`.
 */
import type { Dialect } from "./dialect";

const OPENAI_DROPPED = new Set([
  "minLength",
  "maxLength",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "default",
  "$schema",
  "$comment",
  "examples",
]);
const OPENAI_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const GEMINI_DROPPED = new Set([
  "additionalProperties",
  "$schema",
  "const",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "uniqueItems",
  "examples",
  "$comment",
]);
const GEMINI_FORMATS = new Set(["enum", "date-time"]);

/** The schema to send for `dialect` in strict mode; `schema` is not modified. Never throws. */
export function compileForDialect(schema: unknown, dialect: Dialect): unknown {
  switch (dialect) {
    case "openai-strict":
    case "openai":
    case "openai-compatible":
      return openAiStrict(schema);
    case "anthropic":
      return closed(schema);
    case "gemini":
      return gemini(schema);
  }
}

function openAiStrict(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (OPENAI_DROPPED.has(k)) continue;
    if (k === "format" && !(typeof v === "string" && OPENAI_FORMATS.has(v))) continue;
    define(out, k, v);
  }
  if (isObject(node.items)) out.items = openAiStrict(node.items);
  if (node.type === "object") {
    const props = isObject(node.properties) ? node.properties : {};
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const properties: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(props)) {
      const compiled = openAiStrict(child);
      define(properties, name, required.has(name) ? compiled : nullable(compiled));
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

function nullable(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out = { ...node };
  if (typeof node.type === "string") out.type = [node.type, "null"];
  else if (Array.isArray(node.type) && !node.type.includes("null")) out.type = [...node.type, "null"];
  if (Array.isArray(node.enum) && !node.enum.includes(null)) out.enum = [...node.enum, null];
  return out;
}

function closed(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out = { ...node };
  if (isObject(node.items)) out.items = closed(node.items);
  if (node.type === "object") {
    const properties: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(isObject(node.properties) ? node.properties : {}))
      define(properties, name, closed(child));
    out.properties = properties;
    out.additionalProperties = false;
  }
  return out;
}

function gemini(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (GEMINI_DROPPED.has(k)) continue;
    if (k === "format" && !(typeof v === "string" && GEMINI_FORMATS.has(v) && node.type === "string")) continue;
    define(out, k, v);
  }
  if (Array.isArray(node.type)) {
    const real = node.type.filter((t) => t !== "null");
    out.type = real[0] ?? "string";
    if (real.length < node.type.length) out.nullable = true;
  }
  if (isObject(node.items)) out.items = gemini(node.items);
  if (isObject(node.properties)) {
    const properties: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(node.properties)) define(properties, name, gemini(child));
    out.properties = properties;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function define(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
