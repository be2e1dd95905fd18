/**
 * Normalizes a definition's `parameters` into the stored form, which is
 * always a JSON Schema in the safe subset. Three inputs are accepted because
 * three kinds of authors write them: an object (API, config, MCP), JSON text
 * (the Studio field, whose text starts with `{`), and flat sugar (the
 * Studio's default and hand-written manifests).
 */
import { parseFlatSugar } from "./flat-sugar";
import { checkSafeSchema } from "./safe-schema";
import { toJsonValue } from "./to-json-value";
import type { JsonSchema } from "./types";

/** The stored JSON Schema, or every problem (each prefixed with `parameters`). */
export type ValidateParametersResult = { ok: true; schema: JsonSchema } | { ok: false; problems: string[] };

/**
 * `raw` absent (undefined/null) -> `{type:"object", properties:{}}`; an object
 * -> checked as JSON Schema; a string whose trimmed text starts with `{` ->
 * parsed as JSON Schema text; any other string -> flat sugar. Problems are
 * prefixed with `parameters`. Never throws.
 */
export function validateParameters(raw: unknown): ValidateParametersResult {
  if (raw === undefined || raw === null) return { ok: true, schema: { type: "object", properties: {} } };
  if (typeof raw === "string") {
    if (!raw.trim().startsWith("{")) {
      const flat = parseFlatSugar(raw);
      return flat.ok ? { ok: true, schema: flat.schema } : { ok: false, problems: [`parameters: ${flat.error}`] };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (e) {
      return {
        ok: false,
        problems: [`parameters: invalid JSON Schema text (${e instanceof Error ? e.message : "parse error"})`],
      };
    }
    // Re-copy to apply the same size/depth bounds the rest of the definition had.
    const bounded = toJsonValue(parsed);
    if (!bounded.ok) return { ok: false, problems: [`parameters: ${bounded.error}`] };
    return checkObject(bounded.value);
  }
  if (typeof raw === "object" && !Array.isArray(raw)) return checkObject(raw);
  return { ok: false, problems: ["parameters must be a JSON Schema object, JSON Schema text or flat-sugar text"] };
}

function checkObject(schema: unknown): ValidateParametersResult {
  const problems = checkSafeSchema(schema, "parameters");
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, schema: schema as JsonSchema };
}
