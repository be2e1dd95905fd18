/**
 * The one regular-expression engine for patterns the product does not write
 * itself (`parameters.*.pattern`, matched against what a model sends).
 *
 * V8's backtracking engine takes exponential time on patterns like
 * `^(\w+\s?)*$`; one such call froze the whole process for 92 s. RE2 (here the
 * pure-JS re2js) runs in time linear in the input, at the price of refusing the
 * constructs that need backtracking: backreferences and lookaround. Those are
 * refused when a tool is saved, naming the construct, so nothing that reaches
 * call time can stall.
 */
import { RE2JS } from "re2js";
import { patternProgramSize } from "./pattern-program-size";

/** A compiled pattern: `test` is linear in the input's length. */
export interface LinearRegExp {
  test(input: string): boolean;
  toString(): string;
}

export type CompileLinearRegExpResult = { ok: true; regexp: LinearRegExp } | { ok: false; error: string };

/** RE2's own cap on `{n}` / `{n,m}` counts. */
const MAX_REPEAT = 1000;
const REPEAT_COUNT_ERROR = `uses a repeat count above ${MAX_REPEAT}, which the linear-time regex engine does not support`;

/**
 * The largest program (estimated instructions, see patternProgramSize) a
 * pattern may expand to; also the budget of all the patterns of one schema.
 * re2js compiles at roughly 5 µs an instruction here, so this is some 20 ms
 * at most, while `^.{0,1000}$` (about 2,000 instructions) still fits.
 */
export const MAX_PATTERN_PROGRAM_SIZE = 4000;

/**
 * The estimated bytes of compiled patterns kept for reuse (least recently used dropped
 * first). A stored tool's patterns are checked at every catalog build and compiled again for
 * its validator; kept, each is compiled once while it stays in use.
 */
export const COMPILED_PATTERN_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * What a kept pattern is counted for: its program (~170 bytes an instruction, measured on
 * re2js here), its text, and a floor for what any compiled object holds besides, matching
 * machines included (measured from ~9 KiB for a tiny pattern compiled to tens of KiB once a
 * matcher with large character classes has run). The floor caps the cache at 256 entries.
 */
const BYTES_PER_INSTRUCTION = 170;
const BYTES_PER_ENTRY = 64 * 1024;

/** Compiled patterns by source, least recently used first, with the bytes each one counts. */
const compiledPatterns = new Map<string, { result: CompileLinearRegExpResult & { ok: true }; bytes: number }>();
let compiledPatternsBytes = 0;

/**
 * Compiles a JavaScript-syntax pattern (as JSON Schema and Ajv read it, `u`
 * flag) to a linear-time matcher, or explains why it cannot run on one:
 * `backreference \1`, `lookahead (?=`, `lookbehind (?<!`, a repeat count
 * above 1000, a pattern that expands to more than MAX_PATTERN_PROGRAM_SIZE
 * instructions (checked before anything is compiled), or the engine's own
 * parse error. The pattern must also be a valid JavaScript regular expression
 * (providers read it as one). Never throws. The same pattern gives back the same
 * result (and matcher) while it stays in the cache (COMPILED_PATTERN_CACHE_BYTES).
 */
export function compileLinearRegExp(pattern: string): CompileLinearRegExpResult {
  const kept = compiledPatterns.get(pattern);
  if (kept) {
    compiledPatterns.delete(pattern);
    compiledPatterns.set(pattern, kept);
    return kept.result;
  }
  const { result, size } = compileUncached(pattern);
  // Only a compiled pattern is kept: a refusal is rare, and finding it again costs at most a parse.
  if (!result.ok) return result;
  const bytes = BYTES_PER_ENTRY + size * BYTES_PER_INSTRUCTION + pattern.length * 2;
  compiledPatterns.set(pattern, { result, bytes });
  compiledPatternsBytes += bytes;
  for (const [oldest, entry] of compiledPatterns) {
    if (compiledPatternsBytes <= COMPILED_PATTERN_CACHE_BYTES) break;
    compiledPatterns.delete(oldest);
    compiledPatternsBytes -= entry.bytes;
  }
  return result;
}

/** compileLinearRegExp without the cache, with the pattern's estimated program size. */
function compileUncached(pattern: string): { result: CompileLinearRegExpResult; size: number } {
  const refused = (error: string) => ({ result: { ok: false as const, error }, size: 0 });
  try {
    // Compiling a JS RegExp only parses it; nothing is ever matched with it.
    new RegExp(pattern, "u");
  } catch {
    return refused("is not a valid regular expression");
  }
  const construct = findBacktrackingConstruct(pattern);
  if (construct)
    return refused(`uses ${construct}, which the linear-time regex engine does not support (rewrite it without it)`);
  const { size, maxCount } = patternProgramSize(pattern);
  if (maxCount > MAX_REPEAT) return refused(REPEAT_COUNT_ERROR);
  if (size > MAX_PATTERN_PROGRAM_SIZE)
    return refused(
      `expands to about ${size} regex instructions once its repeat counts are applied, over the limit of ${MAX_PATTERN_PROGRAM_SIZE} (the linear-time engine compiles every repetition separately; bound lengths with maxLength instead)`,
    );
  try {
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    const shown = `/${pattern}/u`;
    return { result: { ok: true, regexp: { test: (input) => re.test(input), toString: () => shown } }, size };
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^error parsing regexp: /, "") : "unknown error";
    if (/repeat count/.test(reason)) return refused(REPEAT_COUNT_ERROR);
    return refused(`is not supported by the linear-time regex engine (${reason})`);
  }
}

/**
 * The engine Ajv's `code.regExp` option takes. Ajv calls it once per pattern
 * while compiling; it throws only for a pattern {@link compileLinearRegExp}
 * refuses, which checkSafeSchema has already refused at save time.
 */
export const linearRegExpEngine = Object.assign(
  (pattern: string): LinearRegExp => {
    const compiled = compileLinearRegExp(pattern);
    if (!compiled.ok) throw new Error(`pattern ${pattern} ${compiled.error}`);
    return compiled.regexp;
  },
  // Ajv keys generated code by this name; only standalone code generation (unused) would emit it.
  { code: "linearRegExpEngine" },
);

/**
 * The first construct that needs backtracking, named for the operator, or
 * null. A single left-to-right scan that skips escaped characters and the
 * inside of character classes (where `(?=` or `\k` mean nothing special).
 * translateRegExp would otherwise rewrite some of them silently (`\k<n>`
 * into the literal `k<n>`), changing what the pattern means.
 */
function findBacktrackingConstruct(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && /[1-9]/.test(next)) return `the backreference \\${next}`;
      if (!inClass && next === "k" && pattern[i + 2] === "<") return "a named backreference \\k<…>";
      i += 1;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      // As in JS with the u flag, the first `]` closes the class (`[]` is empty).
      inClass = true;
    } else if (c === "(" && pattern[i + 1] === "?") {
      const head = pattern.slice(i + 2, i + 4);
      if (head.startsWith("=")) return "a lookahead (?=…)";
      if (head.startsWith("!")) return "a negative lookahead (?!…)";
      if (head === "<=") return "a lookbehind (?<=…)";
      if (head === "<!") return "a negative lookbehind (?<!…)";
    }
  }
  return null;
}
