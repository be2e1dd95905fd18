/**
 * The way back from strict mode: a model answering an OpenAI strict schema
 * sends every property, `null` for the ones the operator's schema left
 * optional. Those nulls are dropped before validation, so the call looks
 * like one against the stored schema (an absent optional argument, not a
 * null the schema does not allow).
 */
import { jsonNestingDepth } from "@/lib/engine/json-nesting-depth";
import { MAX_ARGUMENT_DEPTH } from "@/lib/engine/parse-tool-arguments";

/**
 * `argumentsText` with the nulls of optional properties of `schema` (the stored one) dropped;
 * anything unparseable, or nested deeper than MAX_ARGUMENT_DEPTH, is returned as is.
 */
export function mapStrictArguments(argumentsText: string, schema: unknown): string {
  // Too deep to write back (JSON.stringify would overflow): the engine refuses such arguments anyway.
  if (jsonNestingDepth(argumentsText) > MAX_ARGUMENT_DEPTH) return argumentsText;
  let value: unknown;
  try {
    value = JSON.parse(argumentsText);
  } catch {
    return argumentsText;
  }
  if (!isObject(value)) return argumentsText;
  return JSON.stringify(strip(value, schema, 0));
}

function strip(value: unknown, schema: unknown, depth: number): unknown {
  if (!isObject(schema) || depth > 64) return value;
  if (Array.isArray(value)) return isObject(schema.items) ? value.map((v) => strip(v, schema.items, depth + 1)) : value;
  if (!isObject(value) || !isObject(schema.properties)) return value;
  const props = schema.properties;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const declared = Object.hasOwn(props, key);
    if (v === null && declared && !required.has(key) && !allowsNull(props[key])) continue;
    Object.defineProperty(out, key, {
      value: declared ? strip(v, props[key], depth + 1) : v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function allowsNull(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  return (
    schema.type === "null" ||
    (Array.isArray(schema.type) && schema.type.includes("null")) ||
    (Array.isArray(schema.enum) && schema.enum.includes(null))
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
