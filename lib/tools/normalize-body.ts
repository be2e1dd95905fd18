/**
 * The request body template. Stored as a JSON value whose strings may hold
 * placeholders (DESIGN D5); accepted either as that value or as JSON text,
 * because the Studio and hand-written manifests carry it as text.
 */
import { splitTemplate } from "./placeholders";
import type { HttpMethod, JsonValue } from "./types";

/** True when `text` is exactly one placeholder, e.g. `{{payload}}` (whole-value substitution). */
export function isLonePlaceholder(text: string): boolean {
  const parts = splitTemplate(text);
  return parts.length === 1 && parts[0]?.type === "placeholder";
}

/**
 * Reads `raw` into the body to store: undefined for no body (absent, null,
 * blank text, or text holding `null`), `{ value }` for a body, null after
 * pushing a problem. A string is JSON text, except a lone placeholder
 * (`{{payload}}`, quoted or not) which stands for the whole body. GET/HEAD
 * and MCP tools take no body. (A body that is a plain JSON string is refused
 * by mapBodyStrings, after env substitution.)
 */
export function normalizeBody(
  raw: JsonValue | undefined,
  method: HttpMethod | null,
  protocol: JsonValue | undefined,
  problems: string[],
): { value: JsonValue } | undefined | null {
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return undefined;
  let value: JsonValue = raw;
  if (typeof raw === "string") {
    if (isLonePlaceholder(raw.trim())) value = raw.trim();
    else {
      try {
        value = JSON.parse(raw) as JsonValue;
      } catch (e) {
        problems.push(
          `request.body: a string body must hold JSON text (${e instanceof Error ? e.message : "parse error"}); write a placeholder as a JSON string, e.g. "{{count}}"`,
        );
        return null;
      }
      if (value === null) return undefined;
    }
  }
  if (method === "GET" || method === "HEAD") {
    problems.push(`request.body is not allowed with ${method}`);
    return null;
  }
  if (protocol === "mcp") {
    problems.push(`request.body is not allowed when request.protocol is "mcp" (the JSON-RPC call is the body)`);
    return null;
  }
  return { value };
}

type Template = (text: string, where: string, secretAllowed: boolean) => string | null;

/**
 * Passes every string of `value` through `template` (env substitution and
 * placeholder rules), naming each by its path (`request.body.items[0]`).
 * Keys stay literal: the request builder substitutes values only, so a
 * placeholder in a key is refused. A body that is a single JSON string must
 * be a lone placeholder: stored, any other string could not be told apart
 * from JSON text when the definition is validated again.
 */
export function mapBodyStrings(value: JsonValue, where: string, template: Template, problems: string[]): JsonValue {
  const out = walk(value, where, template, problems);
  if (typeof out === "string" && !isLonePlaceholder(out)) {
    problems.push(
      `${where}: a body that is a single JSON string must be a lone placeholder such as "{{payload}}"; use an object or array`,
    );
  }
  return out;
}

function walk(value: JsonValue, where: string, template: Template, problems: string[]): JsonValue {
  if (typeof value === "string") return template(value, where, false) ?? value;
  if (Array.isArray(value)) return value.map((v, i) => walk(v, `${where}[${i}]`, template, problems));
  if (value !== null && typeof value === "object") {
    const out: { [key: string]: JsonValue } = {};
    for (const [key, v] of Object.entries(value)) {
      if (key.includes("{{")) problems.push(`${where}: placeholders are allowed in values, not in the key '${key}'`);
      // defineProperty: a `__proto__` key stays data instead of re-parenting `out`.
      Object.defineProperty(out, key, {
        value: walk(v, `${where}.${key}`, template, problems),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
