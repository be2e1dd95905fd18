/**
 * How large the program is that the linear-time engine (re2js) would build
 * from a pattern, measured before it builds it.
 *
 * RE2 is linear in the input, but it compiles every repetition of a counted
 * repeat as its own copy: `a{0,999}` is a thousand instructions, and a
 * thousand-character pattern can chain a hundred of those. re2js, unlike
 * RE2 itself, has no cap on program size, and compiling such a pattern took
 * over a second of blocked event loop; a schema holds many patterns and an
 * import many schemas. This count lets the caller refuse the pattern first.
 */

/** The size estimate and the largest repeat count seen (RE2 refuses counts over 1000). */
export interface PatternProgramSize {
  /** Instructions after counted repeats are expanded: an upper-bound estimate, never below the true size's order. */
  size: number;
  /** The largest `{n}`/`{n,m}` count in the pattern (0 when there is none). */
  maxCount: number;
}

interface Frame {
  total: number;
  last: number;
}

/**
 * Estimates the expanded program size of a JavaScript-syntax pattern (`u`
 * flag) in one left-to-right pass, without building anything: every literal,
 * class, escape or anchor counts 1, a group its contents plus 1, `*`/`+`/`?`
 * add 1, `|` adds 1, and `x{n,m}` counts `x` max(n, m) times plus one per
 * copy. Meant for patterns that already parse as JavaScript regular
 * expressions; on anything else it still returns (a rough) number. Never throws.
 */
export function patternProgramSize(pattern: string): PatternProgramSize {
  const stack: Frame[] = [{ total: 0, last: 0 }];
  let maxCount = 0;
  const top = () => stack[stack.length - 1] as Frame;
  const atom = (size: number) => {
    top().total += size;
    top().last = size;
  };
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === "\\") {
      i = endOfEscape(pattern, i);
      atom(1);
    } else if (c === "[") {
      i = endOfClass(pattern, i);
      atom(1);
    } else if (c === "(") {
      if (pattern[i + 1] === "?") i = endOfGroupHead(pattern, i + 1);
      stack.push({ total: 0, last: 0 });
    } else if (c === ")") {
      if (stack.length === 1) continue;
      const group = stack.pop() as Frame;
      atom(group.total + 1);
    } else if (c === "|") {
      top().total += 1;
      top().last = 0;
    } else if (c === "*" || c === "+" || c === "?") {
      top().total += 1;
      top().last = 0;
    } else if (c === "{") {
      const repeat = readRepeat(pattern, i);
      if (repeat === null) {
        atom(1);
        continue;
      }
      i = repeat.end;
      maxCount = Math.max(maxCount, repeat.count);
      const copies = Math.max(repeat.count, 1);
      const frame = top();
      frame.total += frame.last * (copies - 1) + copies;
      frame.last = 0;
    } else {
      atom(1);
    }
  }
  // Unclosed groups (not valid JavaScript anyway) still count.
  let size = 0;
  for (const frame of stack) size += frame.total;
  return { size, maxCount };
}

/** The index of the last character of the escape starting at `i` (a backslash). */
function endOfEscape(pattern: string, i: number): number {
  const kind = pattern[i + 1];
  if ((kind === "p" || kind === "P" || kind === "u") && pattern[i + 2] === "{") {
    const close = pattern.indexOf("}", i + 3);
    return close === -1 ? pattern.length - 1 : close;
  }
  if (kind === "u") return Math.min(i + 5, pattern.length - 1);
  if (kind === "x") return Math.min(i + 3, pattern.length - 1);
  if (kind === "c") return Math.min(i + 2, pattern.length - 1);
  return Math.min(i + 1, pattern.length - 1);
}

/** The index of the `]` closing the class opened at `i` (as with the `u` flag, the first `]` closes it). */
function endOfClass(pattern: string, i: number): number {
  for (let j = i + 1; j < pattern.length; j += 1) {
    if (pattern[j] === "\\") j += 1;
    else if (pattern[j] === "]") return j;
  }
  return pattern.length - 1;
}

/** Skips a group's `?:`, `?<name>` or `?flags:` head; returns the index of its last character. */
function endOfGroupHead(pattern: string, question: number): number {
  for (let j = question + 1; j < pattern.length; j += 1) {
    const c = pattern[j];
    if (c === ":" || c === ">") return j;
    if (c === ")" || c === "(") return j - 1;
  }
  return pattern.length - 1;
}

/** A `{n}`, `{n,}` or `{n,m}` at `i`: the count it expands to and its last index, or null for a literal `{`. */
function readRepeat(pattern: string, i: number): { count: number; end: number } | null {
  let j = i + 1;
  const min = readDigits(pattern, j);
  if (min === null) return null;
  j = min.end;
  let count = min.value;
  if (pattern[j] === ",") {
    j += 1;
    const max = readDigits(pattern, j);
    if (max !== null) {
      count = Math.max(count, max.value);
      j = max.end;
    }
  }
  if (pattern[j] !== "}") return null;
  return { count, end: j };
}

function readDigits(pattern: string, from: number): { value: number; end: number } | null {
  let j = from;
  let value = 0;
  while (j < pattern.length && pattern.charCodeAt(j) >= 48 && pattern.charCodeAt(j) <= 57) {
    value = value * 10 + (pattern.charCodeAt(j) - 48);
    j += 1;
  }
  return j === from ? null : { value, end: j };
}
