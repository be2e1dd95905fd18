/**
 * How deeply JSON text nests, measured without parsing it. The recursive writers downstream
 * (JSON.stringify in the trace, the call identity, the provider SDKs) overflow the stack at a
 * few thousand levels, which JSON.parse happily builds; measuring first lets a caller refuse
 * or keep such text as text.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The deepest nesting of arrays and objects in `text`: one pass, no recursion, brackets inside
 * strings skipped (a backslash there always escapes the next character). Exact for valid JSON;
 * for other text, an upper bound that is still cheap to compute.
 */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return deepest;
}
