/**
 * How resume recognizes a tool call (DESIGN D9): by where it sits in the turn and what it
 * asked for, never by the provider's call id (a re-asked model invents new ids).
 */

/** The parts a call identity is made of. `arguments` is the parsed value (or the raw text). */
export interface CallIdentityParts {
  turnId: string;
  /** 0-based model step within the turn. */
  step: number;
  /** 0-based position of the call within its step (call order). */
  position: number;
  tool: string;
  arguments: unknown;
}

/**
 * A stable string key for (turn, step, position, tool, canonical arguments JSON). Two calls
 * get the same identity exactly when all five agree; object key order in the arguments does
 * not matter. Encoded as a JSON array so no separator inside a part can make two different
 * calls collide.
 */
export function callIdentity(parts: CallIdentityParts): string {
  return JSON.stringify([parts.turnId, parts.step, parts.position, parts.tool, canonicalJson(parts.arguments)]);
}

/**
 * JSON text with object keys sorted (by UTF-16 code unit) at every depth and no whitespace.
 * Otherwise it follows JSON.stringify: array order kept, `undefined`/function members dropped
 * from objects and written `null` in arrays, non-finite numbers `null`. Throws a TypeError for
 * a cycle or a bigint (such a value has no JSON form, and guessing one would break identity).
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set()) ?? "null";
}

// Builds the text directly rather than a key-sorted object: re-creating an object would turn
// an own "__proto__" key (which JSON.parse does produce) into a prototype change.
function write(value: unknown, ancestors: Set<object>): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    case "bigint":
      throw new TypeError("canonicalJson: a bigint has no JSON form");
  }
  const object = value as object;
  if (ancestors.has(object)) throw new TypeError("canonicalJson: the value contains a cycle");
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      return `[${object.map((item) => write(item, ancestors) ?? "null").join(",")}]`;
    }
    const record = object as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const text = write(record[key], ancestors);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(",")}}`;
  } finally {
    ancestors.delete(object);
  }
}
