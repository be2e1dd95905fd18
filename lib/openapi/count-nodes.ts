/**
 * How large a parsed document becomes once every internal `$ref` is inlined
 * and every shared value (a YAML alias) is counted at each place it appears.
 * Both let a few kilobytes stand for billions of nodes (a "billion laughs"
 * document: `a2` refers to `a1` nine times, `a3` to `a2` nine times...), and
 * the dereferencer, which inlines them, would then run for hours. Computed in
 * time linear in the document (each shared value and each reference target
 * measured once, memoized), before the dereferencer runs.
 */

/** The inlined size in nodes (each object, list and scalar one node), or null when it is over `max`. */
export function countNodesUpTo(doc: unknown, max: number): number | null {
  const memo = new WeakMap<object, number>();
  const refs = new Map<string, number>();
  const onStack = new Set<string>();
  const measure = (node: unknown, depth: number): number => {
    if (node === null || typeof node !== "object") return 1;
    const known = memo.get(node);
    if (known !== undefined) return known;
    if (depth > 10_000) return Infinity;
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === "string" && ref.startsWith("#")) {
      const cached = refs.get(ref);
      if (cached !== undefined) return cached;
      if (onStack.has(ref)) return 1; // circular: the dereferencer keeps it as a $ref
      const target = resolvePointer(doc, ref);
      if (target === undefined) return 1;
      onStack.add(ref);
      const size = measure(target, depth + 1);
      onStack.delete(ref);
      refs.set(ref, size);
      return size;
    }
    let size = 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      size += measure(child, depth + 1);
      if (size > max) break;
    }
    memo.set(node, size);
    return size;
  };
  const total = measure(doc, 0);
  return total > max ? null : total;
}

/** `#/components/schemas/Pet` in `doc` (JSON Pointer, `~1` and `~0` and percent-escapes decoded). */
function resolvePointer(doc: unknown, ref: string): unknown {
  let node: unknown = doc;
  const path = ref.slice(1);
  if (path === "") return doc;
  for (const raw of path.split("/").slice(1)) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
