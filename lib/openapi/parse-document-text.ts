/**
 * The text of an OpenAPI document -> its value: JSON when it parses as JSON,
 * else YAML (YAML 1.2's core schema, so `on`/`yes` stay strings and no
 * custom tag can build an object the parser did not mean).
 */
import yaml from "js-yaml";
import { errorMessage } from "@/lib/errors";

export type ParseDocumentTextResult = { ok: true; value: unknown } | { ok: false; reason: string };

/** Parses `text`; the reason of a failure is the YAML parser's own (its first line). Never throws. */
export function parseDocumentText(text: string): ParseDocumentTextResult {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (e) {
      // JSON that does not parse may still be YAML's flow style; fall through with YAML's verdict.
      const yamlTry = parseYaml(text);
      return yamlTry.ok ? yamlTry : { ok: false, reason: `not valid JSON: ${errorMessage(e)}` };
    }
  }
  return parseYaml(text);
}

function parseYaml(text: string): ParseDocumentTextResult {
  try {
    return { ok: true, value: yaml.load(text, { schema: yaml.CORE_SCHEMA, json: true }) };
  } catch (e) {
    return { ok: false, reason: `not valid YAML: ${(errorMessage(e).split("\n")[0] ?? "").slice(0, 300)}` };
  }
}
