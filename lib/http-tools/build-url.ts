/**
 * Builds a data tool's URL from its template, its `query` map and the call's
 * values, component by component (DESIGN D5). The template is cut at its
 * *literal* delimiters first (placeholder text can never hold `/`, `?`, `&`,
 * `=` or `#`), and only then are values substituted, each encoded for the
 * component it lands in. So a model value can add characters to a path
 * segment or a query value, never a segment, a parameter or a host.
 */
import { splitTemplate, type TemplatePart } from "@/lib/tools/placeholders";
import {
  BuildError,
  assertWellFormed,
  deepFreeze,
  exactPlaceholder,
  rememberTemplate,
  splitTemplateCached,
  renderParts,
  resolvePlaceholder,
  valueToText,
  type TemplateScope,
} from "./template-scope";

// Scheme and authority as WHATWG finds them for a special scheme (the same
// cut check-url-template.ts makes at ingestion).
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*[^/\\?#]*/;

interface QueryPair {
  name: TemplatePart[];
  value: TemplatePart[] | null;
}

interface UrlShape {
  segments: TemplatePart[][];
  pairs: QueryPair[];
}

/** What buildUrl learns from the template alone (no call values): the same for every call. */
interface UrlTemplate {
  /** Scheme and authority, literal. */
  prefix: string;
  /** The origin the built URL must keep. */
  origin: string;
  shape: UrlShape;
}

// Analyzed templates by their text (frozen, shared between calls); bounded.
const ANALYZED = new Map<string, UrlTemplate>();

/**
 * Returns the request URL. Path values are percent-encoded per segment with
 * encodeURIComponent, and a segment that a value turns into `.`, `..` or ""
 * is refused (each would address another resource than the template names);
 * an absent argument in the path is refused for the same reason. Query values
 * (URL template and `query` map) are encoded as query components; a value that
 * is exactly one placeholder for an absent optional argument drops its
 * parameter, and an array of scalars there repeats the parameter once per item.
 * The fragment is dropped (it is never sent). Finally the origin is compared
 * with the template's own: it must be identical. Throws BuildError.
 */
export function buildUrl(template: string, query: Readonly<Record<string, string>>, scope: TemplateScope): URL {
  const { prefix, origin, shape } = analyzeTemplate(template);
  let path = "";
  for (let i = 0; i < shape.segments.length; i++) {
    if (i > 0) path += "/";
    path += renderSegment(shape.segments[i] as TemplatePart[], scope);
  }

  const pieces: string[] = [];
  for (const pair of shape.pairs) {
    const name = renderParts(pair.name, scope, "request.url query", encodeURIComponent);
    if (pair.value === null) {
      if (name !== "") pieces.push(name);
      continue;
    }
    for (const v of queryValues(pair.value, scope, "request.url query", encodeURIComponent))
      pieces.push(`${name}=${v}`);
  }
  const params = new URLSearchParams();
  for (const [name, tpl] of Object.entries(query)) {
    const where = `request.query.${name}`;
    for (const v of queryValues(splitTemplateCached(tpl), scope, where, identity)) params.append(name, v);
  }
  const fromMap = params.toString();
  if (fromMap !== "") pieces.push(fromMap);

  const text = `${prefix}${path}${pieces.length > 0 ? `?${pieces.join("&")}` : ""}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BuildError("request.url did not build into a valid URL");
  }
  // Structural encoding already makes this impossible; the assertion keeps it
  // impossible if the code above ever changes.
  if (url.origin !== origin || url.username !== "" || url.password !== "") {
    throw new BuildError("request.url: the built URL would change the destination (refused)");
  }
  // Setting the hash re-serializes the URL; there is never a `#` to drop (a
  // literal one ends the template, values are encoded), so only if there is.
  if (text.includes("#")) url.hash = "";
  return url;
}

function identity(text: string): string {
  return text;
}

// The template-only half of buildUrl, memoized by the template text; throws
// BuildError (refusals are not cached: they are rare and cheap to redo).
function analyzeTemplate(template: string): UrlTemplate {
  const hit = typeof template === "string" ? ANALYZED.get(template) : undefined;
  if (hit !== undefined) return hit;
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (typeof template !== "string" || /[\u0000-\u0020\u007f\\]/.test(template)) {
    throw new BuildError("request.url contains spaces, control characters or backslashes");
  }
  const prefix = AUTHORITY.exec(template)?.[0];
  if (prefix === undefined || prefix.includes("{{")) {
    throw new BuildError("request.url must start with a literal http(s) scheme and host");
  }
  let origin: URL;
  try {
    origin = new URL(`${prefix}/`);
  } catch {
    throw new BuildError("request.url is not a valid URL");
  }
  if (
    (origin.protocol !== "http:" && origin.protocol !== "https:") ||
    origin.username !== "" ||
    origin.password !== ""
  ) {
    throw new BuildError("request.url must be http/https without credentials");
  }
  const analyzed: UrlTemplate = deepFreeze({
    prefix,
    origin: origin.origin,
    shape: cutTemplate(template.slice(prefix.length)),
  });
  rememberTemplate(ANALYZED, template, analyzed);
  return analyzed;
}

// Splits the part of the template after the authority into path segments and
// query pairs, at literal delimiters only.
function cutTemplate(rest: string): UrlShape {
  const shape: UrlShape = { segments: [[]], pairs: [] };
  let state: "path" | "query" | "fragment" = "path";
  let pair: QueryPair | null = null;
  const target = (): TemplatePart[] => {
    if (state === "path") return shape.segments[shape.segments.length - 1] as TemplatePart[];
    pair ??= pushPair(shape);
    return pair.value ?? pair.name;
  };
  for (const part of splitTemplate(rest)) {
    if (state === "fragment") break;
    if (part.type !== "text") {
      target().push(part);
      continue;
    }
    let run = "";
    const flush = () => {
      if (run !== "") appendText(target(), run);
      run = "";
    };
    for (const ch of part.text) {
      if (state === "path" && (ch === "/" || ch === "?" || ch === "#")) {
        flush();
        if (ch === "/") shape.segments.push([]);
        else state = ch === "?" ? "query" : "fragment";
      } else if (
        state === "query" &&
        (ch === "&" || ch === "#" || (ch === "=" && (pair === null || pair.value === null)))
      ) {
        flush();
        if (ch === "&") pair = pushPair(shape);
        else if (ch === "#") state = "fragment";
        else (pair ??= pushPair(shape)).value = [];
      } else if (state !== "fragment") {
        run += ch;
      }
    }
    flush();
  }
  return shape;
}

function pushPair(shape: UrlShape): QueryPair {
  const pair: QueryPair = { name: [], value: null };
  shape.pairs.push(pair);
  return pair;
}

function appendText(parts: TemplatePart[], text: string): void {
  const last = parts[parts.length - 1];
  if (last && last.type === "text") parts[parts.length - 1] = { type: "text", text: last.text + text };
  else parts.push({ type: "text", text });
}

function renderSegment(seg: TemplatePart[], scope: TemplateScope): string {
  const text = renderParts(seg, scope, "request.url path", encodeURIComponent, "error");
  if (!seg.some((p) => p.type === "placeholder")) return text;
  // WHATWG treats %2e as a dot when it normalizes dot segments.
  const dots = text.replace(/%2e/gi, ".");
  if (dots === "." || dots === "..") {
    throw new BuildError("request.url path: a path value of '.' or '..' is refused");
  }
  if (text === "") throw new BuildError("request.url path: a path value must not be empty");
  return text;
}

// The encoded values of one query parameter: [] drops it (absent optional
// argument, or an empty list), several repeat it (a list of scalars).
function queryValues(
  parts: readonly TemplatePart[],
  scope: TemplateScope,
  where: string,
  encode: (text: string) => string,
): string[] {
  const exact = exactPlaceholder(parts);
  if (exact && exact.kind === "param") {
    const r = resolvePlaceholder(exact, scope, where);
    if (r.kind === "absent") return [];
    const items = Array.isArray(r.value) && r.value.every(isScalar) ? r.value : [r.value];
    return items.map((item) => {
      const text = valueToText(item);
      assertWellFormed(text, where);
      return encode(text);
    });
  }
  return [renderParts(parts, scope, where, encode)];
}

function isScalar(v: unknown): boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}
