/**
 * What a `{{...}}` placeholder may read at call time, and how a value becomes
 * text. Shared by the URL, header and body builders so every position
 * resolves `{{param}}` and `{{ctx.*}}` by the same rules (DESIGN D5):
 *
 * - `{{param}}` reads the model's arguments, own properties only, and only
 *   for a declared top-level parameter (ingestion already refuses others;
 *   checking again costs nothing and keeps an undeclared argument inert).
 * - `{{ctx.key}}` reads the server-side turn context only, never the
 *   arguments, so a model argument named `chat_id` cannot impersonate a session.
 * - `{{secret.*}}`, `{{env.*}}`, unknown namespaces and malformed runs are
 *   refused here; secrets are resolved by the header builder alone.
 *
 * Values are used exactly once: the builders copy literal text and substitute
 * placeholder parts, and never scan a substituted value again, so a model
 * value of `{{secret.x}}` stays those literal characters.
 */
import { splitTemplate, type Placeholder, type TemplatePart } from "@/lib/tools/placeholders";
import { CTX_KEYS, type TurnContext } from "@/lib/tools/types";

/** The inputs a template may read. */
export interface TemplateScope {
  /** The model's arguments (already validated against the schema). */
  args: Record<string, unknown>;
  /** Declared top-level parameter names (`parameters.properties`). */
  declared: ReadonlySet<string>;
  ctx: TurnContext;
}

/** A placeholder's value: `absent` is an optional parameter the model left out. */
export type Resolved = { kind: "absent" } | { kind: "value"; value: unknown };

/**
 * A refusal while building a request. Thrown inside the builders only and
 * turned into `{ ok: false, error }` by buildRequest; messages name the place
 * and the placeholder, never a secret value.
 */
export class BuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BuildError";
  }
}

/** The declared top-level parameter names of a schema (own keys of `properties`). */
export function declaredParameters(schema: unknown): Set<string> {
  const props = isPlainObject(schema) ? schema.properties : undefined;
  return new Set(isPlainObject(props) ? Object.keys(props) : []);
}

/**
 * Resolves a `{{param}}` or `{{ctx.*}}` placeholder. A missing context key is
 * an error rather than an empty string: a backend that scopes by tenant or
 * session must never receive a blank scope it might read as "all".
 */
export function resolvePlaceholder(p: Placeholder, scope: TemplateScope, where: string): Resolved {
  if (p.kind === "param") {
    if (!scope.declared.has(p.name)) {
      throw new BuildError(`${where}: {{${p.name}}} is not a declared parameter`);
    }
    if (!Object.prototype.hasOwnProperty.call(scope.args, p.name)) return { kind: "absent" };
    const value = scope.args[p.name];
    return value === undefined ? { kind: "absent" } : { kind: "value", value };
  }
  if (p.kind === "ctx") {
    if (!(CTX_KEYS as readonly string[]).includes(p.name)) {
      throw new BuildError(`${where}: {{ctx.${p.name}}} is not a context key`);
    }
    const ctx = scope.ctx as Record<string, unknown>;
    const value = Object.prototype.hasOwnProperty.call(ctx, p.name) ? ctx[p.name] : undefined;
    if (typeof value !== "string" || value === "") {
      throw new BuildError(`${where}: the turn context has no ${p.name} (needed by {{ctx.${p.name}}})`);
    }
    return { kind: "value", value };
  }
  if (p.kind === "secret") {
    throw new BuildError(`${where}: {{secret.*}} is allowed only inside a header listed in secret_headers`);
  }
  throw new BuildError(`${where}: placeholder ${p.raw} cannot be resolved at call time`);
}

/**
 * The text form of an argument as the model sent it: strings unchanged,
 * numbers and booleans in their JSON form, anything else as JSON text. No
 * coercion: `"2"` stays `"2"` and `2` becomes `2`.
 */
export function valueToText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "null";
}

// A lone surrogate cannot be UTF-8 encoded; URL and header encoders would
// either throw or silently swap it for U+FFFD, which is a coercion.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuses text that is not well-formed Unicode (see LONE_SURROGATE). */
export function assertWellFormed(text: string, where: string): void {
  if (LONE_SURROGATE.test(text)) throw new BuildError(`${where}: value contains invalid Unicode (a lone surrogate)`);
}

/**
 * Renders template parts as text: literal text is copied as written,
 * each placeholder's text form goes through `encode` once. An absent optional
 * parameter renders as "" unless `absent` is "error".
 */
export function renderParts(
  parts: readonly TemplatePart[],
  scope: TemplateScope,
  where: string,
  encode: (text: string) => string,
  absent: "empty" | "error" = "empty",
): string {
  let out = "";
  for (const part of parts) {
    if (part.type === "text") {
      out += part.text;
    } else if (part.type === "malformed") {
      throw new BuildError(`${where}: malformed placeholder in the tool definition`);
    } else {
      const r = resolvePlaceholder(part.placeholder, scope, where);
      if (r.kind === "absent") {
        if (absent === "error") throw new BuildError(`${where}: argument '${part.placeholder.name}' is required here`);
        continue;
      }
      const text = valueToText(r.value);
      assertWellFormed(text, where);
      out += encode(text);
    }
  }
  return out;
}

// Templates are a tool version's own strings, split again on every call otherwise.
// Keyed by the text itself (a string cannot change under the key, unlike a
// definition object); bounded, oldest first out.
const MAX_CACHED_TEMPLATES = 4096;
const SPLIT = new Map<string, readonly TemplatePart[]>();

/**
 * splitTemplate, memoized: the same template text always yields the same parts.
 * The parts are frozen (shared between calls); callers copy before changing.
 */
export function splitTemplateCached(text: string): readonly TemplatePart[] {
  const hit = SPLIT.get(text);
  if (hit !== undefined) return hit;
  const parts = deepFreeze(splitTemplate(text));
  if (typeof text === "string") rememberTemplate(SPLIT, text, parts);
  return parts;
}

/** Adds to a bounded memo table (the oldest entry goes when full). */
export function rememberTemplate<V>(table: Map<string, V>, key: string, value: V): void {
  if (table.size >= MAX_CACHED_TEMPLATES) {
    const oldest = table.keys().next();
    if (!oldest.done) table.delete(oldest.value);
  }
  table.set(key, value);
}

/** Freezes a tree of plain objects and arrays (template parts, URL shapes). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The single placeholder a template consists of, if that is all it is. */
export function exactPlaceholder(parts: readonly TemplatePart[]): Placeholder | null {
  const only = parts.length === 1 ? parts[0] : undefined;
  return only && only.type === "placeholder" ? only.placeholder : null;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Sets `key` as an own data property (assignment would run a `__proto__` setter).
 * Only `__proto__` needs defineProperty: for any other key, assigning to a plain
 * object makes the same enumerable, writable, configurable property, ten times
 * faster (Object.prototype has no other setter).
 */
export function defineOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__")
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
