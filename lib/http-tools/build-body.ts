/**
 * Builds a JSON request body from the tool's body template (DESIGN D5). The
 * template is a parsed JSON value; it is walked as a tree and rebuilt, and
 * only then serialized, so escaping is JSON.stringify's job and a model value
 * can never close a string or open an object. Object keys are literal
 * (ingestion refuses placeholders in keys).
 */
import { toJsonValue } from "@/lib/tools/to-json-value";
import type { JsonValue } from "@/lib/tools/types";
import {
  BuildError,
  defineOwn,
  exactPlaceholder,
  isPlainObject,
  renderParts,
  resolvePlaceholder,
  splitTemplateCached,
  type TemplateScope,
} from "./template-scope";

// Marks "leave this out" while walking: a key whose exact placeholder names an
// absent optional argument.
const DROP = Symbol("drop");
type Built = JsonValue | typeof DROP;

/**
 * Returns the body as JSON text, or null when there is no body (no template,
 * or a template that is exactly `"{{p}}"` for an absent argument).
 *
 * - A string that is exactly one placeholder takes the value itself: the
 *   argument's JSON value as sent (number, array, object...), or the context
 *   string. An absent optional argument drops the key from its object; in an
 *   array it becomes null, because removing it would shift the positions of
 *   the items after it.
 * - A placeholder inside a longer string is substituted as text, and the
 *   string is escaped when the whole tree is serialized.
 *
 * The text is parsed back before it is returned: what is sent is proven to be
 * valid JSON. Throws BuildError.
 */
export function buildBody(template: JsonValue | undefined, scope: TemplateScope): string | null {
  if (template === undefined) return null;
  const tree = walk(template, scope, "request.body");
  if (tree === DROP) return null;
  const text = JSON.stringify(tree);
  try {
    JSON.parse(text);
  } catch {
    throw new BuildError("request.body did not build into valid JSON");
  }
  return text;
}

function walk(node: JsonValue, scope: TemplateScope, where: string): Built {
  if (typeof node === "string") return walkString(node, scope, where);
  if (Array.isArray(node)) {
    return node.map((item, i) => {
      const built = walk(item, scope, `${where}[${i}]`);
      return built === DROP ? null : built;
    });
  }
  if (isPlainObject(node)) {
    const out: { [key: string]: JsonValue } = {};
    for (const [key, value] of Object.entries(node)) {
      const built = walk(value as JsonValue, scope, `${where}.${key}`);
      if (built !== DROP) defineOwn(out, key, built);
    }
    return out;
  }
  return node;
}

function walkString(text: string, scope: TemplateScope, where: string): Built {
  const parts = splitTemplateCached(text);
  const exact = exactPlaceholder(parts);
  if (exact) {
    const r = resolvePlaceholder(exact, scope, where);
    if (r.kind === "absent") return DROP;
    // A deep copy that also proves the value is plain JSON (no cycles, no
    // NaN); a model value arrives from JSON.parse, so this only ever fails
    // for arguments handed in by code.
    const copy = toJsonValue(r.value);
    if (!copy.ok) throw new BuildError(`${where}: argument '${exact.name}' is not a JSON value (${copy.error})`);
    return copy.value;
  }
  // No encoding here: JSON.stringify of the tree escapes the finished string.
  return renderParts(parts, scope, where, (t) => t);
}
