/**
 * How large and how deep a parsed document becomes once every internal `$ref`
 * is inlined and every shared value (a YAML alias) is counted at each place it
 * appears. Both let a few kilobytes stand for billions of nodes (a "billion
 * laughs" document: `a2` refers to `a1` nine times, `a3` to `a2` nine
 * times...), and the dereferencer, which inlines them, would then run for
 * hours; a document nested thousands of levels deep (as written, or through a
 * chain of references) overflows the stack of everything that walks it.
 * Computed in time linear in the document (each shared value and each
 * reference target measured once, memoized), before the dereferencer runs,
 * and never deeper than `maxDepth` itself.
 */

/** The inlined size (each object, list and scalar one node) and depth, or which bound it is over. */
export type InlinedDocumentSize = { ok: true; nodes: number; depth: number } | { ok: false; over: "nodes" | "depth" };

interface Measured {
  nodes: number;
  /** Levels from this value down to its deepest scalar, references followed (a scalar is 1). */
  height: number;
}

class OverBound extends Error {
  constructor(readonly over: "nodes" | "depth") {
    super(`over the ${over} bound`);
  }
}

/**
 * Measures `doc` with references inlined; stops at the first bound passed:
 * more than `limits.maxNodes` nodes, or a value more than `limits.maxDepth`
 * levels below the top. Never throws.
 */
export function measureInlinedDocument(
  doc: unknown,
  limits: { maxNodes: number; maxDepth: number },
): InlinedDocumentSize {
  const memo = new WeakMap<object, Measured>();
  const refs = new Map<string, Measured>();
  const onStack = new Set<string>();
  const leaf: Measured = { nodes: 1, height: 1 };
  // `depth`: levels above `node` once inlined. A memoized value may be reached deeper than where
  // it was measured: its height says whether it fits there.
  const measure = (node: unknown, depth: number): Measured => {
    if (depth + 1 > limits.maxDepth) throw new OverBound("depth");
    if (node === null || typeof node !== "object") return leaf;
    const known = memo.get(node);
    if (known !== undefined) return fits(known, depth);
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === "string" && ref.startsWith("#")) {
      const cached = refs.get(ref);
      if (cached !== undefined) return fits(cached, depth);
      if (onStack.has(ref)) return leaf; // circular: the dereferencer keeps it as a $ref
      const target = resolvePointer(doc, ref);
      if (target === undefined) return leaf;
      // The reference counts as a level: a chain of references to references is then bounded too.
      onStack.add(ref);
      const inner = measure(target, depth + 1);
      onStack.delete(ref);
      const size = { nodes: inner.nodes, height: inner.height + 1 };
      refs.set(ref, size);
      return size;
    }
    let nodes = 1;
    let below = 0;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      const m = measure(child, depth + 1);
      nodes += m.nodes;
      below = Math.max(below, m.height);
      if (nodes > limits.maxNodes) throw new OverBound("nodes");
    }
    const size = { nodes, height: below + 1 };
    memo.set(node, size);
    return size;
  };
  const fits = (m: Measured, depth: number): Measured => {
    if (depth + m.height > limits.maxDepth) throw new OverBound("depth");
    return m;
  };
  try {
    const total = measure(doc, 0);
    return total.nodes > limits.maxNodes
      ? { ok: false, over: "nodes" }
      : { ok: true, nodes: total.nodes, depth: total.height };
  } catch (e) {
    if (e instanceof OverBound) return { ok: false, over: e.over };
    throw e;
  }
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
