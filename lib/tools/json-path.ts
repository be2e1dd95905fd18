/**
 * The small path grammar of DESIGN D1, used by `response.path`,
 * `halt_when.json_path` and `say.json_path`.
 *
 *   path  := root steps | name steps
 *   root  := "$" | "tool_result"          (both mean the parsed body)
 *   steps := ( "." name | "['" quoted "']" | '["' quoted '"]' | "[" index "]" )*
 *
 * Hand-written on purpose: no filters, no wildcards, no eval, no library, so
 * a stored path can never execute anything or scan a huge body.
 */

/** One step: a string is an object key, a number an array index. */
export type JsonPathStep = string | number;

/** Parsed steps, or why the path is malformed. */
export type ParseJsonPathResult = { ok: true; steps: JsonPathStep[] } | { ok: false; error: string };

/** `found: false` covers every miss: invalid path, absent key, wrong container type. */
export type ReadJsonPathResult = { found: true; value: unknown } | { found: false };

/** Paths longer than this are refused: a real path is a handful of steps. */
export const MAX_JSON_PATH_LENGTH = 1024;

// A dotted name stops at the characters that start another step or a quote;
// anything else (hyphens, digits, `$`) is allowed because JSON keys are free-form.
const NAME_CHAR = /[^.[\]'"\s]/;

/**
 * Parses a path (surrounding whitespace ignored) into steps.
 * Never throws; a malformed path gives `{ ok: false, error }` naming the position.
 */
export function parseJsonPath(text: unknown): ParseJsonPathResult {
  if (typeof text !== "string") return { ok: false, error: "path must be a string" };
  const src = text.trim();
  if (src === "") return { ok: false, error: "path is empty" };
  if (src.length > MAX_JSON_PATH_LENGTH) {
    return { ok: false, error: `path is longer than ${MAX_JSON_PATH_LENGTH} characters` };
  }
  const steps: JsonPathStep[] = [];
  let i = 0;
  const fail = (why: string): ParseJsonPathResult => ({
    ok: false,
    error: `invalid path '${src}' at position ${i + 1}: ${why}`,
  });

  // Root: `$` or `tool_result` only when followed by end or a step; otherwise
  // the first token is an ordinary key (`tool_results.x` is a key path).
  if (src[0] === "$" && (src.length === 1 || src[1] === "." || src[1] === "[")) {
    i = 1;
  } else if (src.startsWith("tool_result") && (src.length === 11 || src[11] === "." || src[11] === "[")) {
    i = 11;
  } else {
    const name = readName(src, 0);
    if (name === "") return fail("expected '$', 'tool_result' or a key name");
    steps.push(name);
    i = name.length;
  }

  while (i < src.length) {
    const c = src[i];
    if (c === ".") {
      const name = readName(src, i + 1);
      if (name === "") {
        i += 1;
        return fail("expected a key name after '.'");
      }
      steps.push(name);
      i += 1 + name.length;
    } else if (c === "[") {
      const q = src[i + 1];
      if (q === "'" || q === '"') {
        const quoted = readQuoted(src, i + 2, q);
        if (!quoted.ok) {
          i = quoted.at;
          return fail(quoted.error);
        }
        if (src[quoted.end] !== "]") {
          i = quoted.end;
          return fail("expected ']' after the quoted key");
        }
        steps.push(quoted.value);
        i = quoted.end + 1;
      } else {
        const m = /^(0|[1-9][0-9]*)\]/.exec(src.slice(i + 1, i + 20));
        if (!m || !m[1]) {
          i += 1;
          return fail("expected a non-negative integer index or a quoted key");
        }
        const index = Number(m[1]);
        if (!Number.isSafeInteger(index)) {
          i += 1;
          return fail("index is too large");
        }
        steps.push(index);
        i += 1 + m[0].length;
      }
    } else {
      return fail(`unexpected '${c}'`);
    }
  }
  return { ok: true, steps };
}

function readName(src: string, from: number): string {
  let end = from;
  while (end < src.length && NAME_CHAR.test(src[end] as string)) end += 1;
  return src.slice(from, end);
}

type Quoted = { ok: true; value: string; end: number } | { ok: false; error: string; at: number };

// Reads up to the closing quote. Only `\\` and `\<quote>` are escapes, so a
// key can hold any other character literally and nothing is ambiguous.
function readQuoted(src: string, from: number, quote: string): Quoted {
  let value = "";
  let i = from;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === quote) return { ok: true, value, end: i + 1 };
    if (c === "\\") {
      const next = src[i + 1];
      if (next !== quote && next !== "\\") {
        return { ok: false, error: `only \\\\ and \\${quote} are escapes`, at: i };
      }
      value += next;
      i += 2;
    } else {
      value += c;
      i += 1;
    }
  }
  return { ok: false, error: "unterminated quoted key", at: from - 1 };
}

/**
 * Reads `path` (text or parsed steps) from `value`.
 * Keys resolve only on plain objects and only as own properties (so
 * `__proto__`/`constructor` never reach the prototype); indexes only on arrays.
 * An invalid path, a missing key or a type mismatch gives `{ found: false }`.
 */
export function readJsonPath(value: unknown, path: string | readonly JsonPathStep[]): ReadJsonPathResult {
  let steps: readonly JsonPathStep[];
  if (typeof path === "string") {
    const parsed = parseJsonPath(path);
    if (!parsed.ok) return { found: false };
    steps = parsed.steps;
  } else if (Array.isArray(path)) {
    steps = path;
  } else {
    return { found: false };
  }
  let current: unknown = value;
  for (const step of steps) {
    if (typeof step === "number") {
      if (!Array.isArray(current) || !Number.isInteger(step) || step < 0 || step >= current.length) {
        return { found: false };
      }
      current = current[step];
    } else if (typeof step === "string") {
      if (current === null || typeof current !== "object" || Array.isArray(current)) {
        return { found: false };
      }
      if (!Object.prototype.hasOwnProperty.call(current, step)) return { found: false };
      current = (current as Record<string, unknown>)[step];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}
