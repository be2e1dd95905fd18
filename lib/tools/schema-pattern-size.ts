/**
 * What compiling every `pattern` of a schema would cost, before anything is compiled: the sum
 * of the patterns' expanded program sizes (patternProgramSize). One schema is held to
 * MAX_PATTERN_PROGRAM_SIZE by checkSafeSchema; an import of many tools sums this to hold the
 * whole import to a budget, since each tool under its own bound still adds up.
 */
import { patternProgramSize } from "./pattern-program-size";

/**
 * The summed program size of every string `pattern` in `schema` (any object at any depth: an
 * over-count is harmless here), walked without recursion. Stops counting at `stopAbove`
 * (returns a number above it). Never throws on JSON values.
 */
export function schemaPatternSize(schema: unknown, stopAbove = Infinity): number {
  let total = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0 && total <= stopAbove) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "pattern" && typeof value === "string") total += patternProgramSize(value).size;
      else stack.push(value);
    }
  }
  return total;
}
