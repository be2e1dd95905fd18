/**
 * How deeply a parsed JSON value nests, measured without recursion, so a hostile body
 * (thousands of nested arrays) cannot overflow the stack of the code that later walks it
 * (zod, flat sugar, the safe-subset check, canonical JSON...).
 */

/** True when `value` nests more than `max` arrays/objects deep. Stops at the first level over. */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    const level = depth + 1;
    if (level > max) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === "object") stack.push({ node: child, depth: level });
    }
  }
  return false;
}
