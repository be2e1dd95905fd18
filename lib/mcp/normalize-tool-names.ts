/**
 * MCP tool names are free-form (`get-sum`, `Search.Files`, `2fa`); Insika's
 * are `/^[a-z][a-z0-9_]*$/` and at most 64 characters. Each server name is
 * mapped to a valid one; the server's own name is kept for the call
 * (`request.mcp_tool`), so nothing about the server has to change.
 */
import { MAX_TOOL_NAME_LENGTH } from "@/lib/tools";

/** Prefix for a name that would not start with a letter (`2fa` -> `mcp_2fa`). */
export const LEADING_PREFIX = "mcp_";

/** One server name, the name it got, and, when two names collided, why it got a suffix. */
export interface NormalizedName {
  mcpName: string;
  name: string;
  /** Set when the plain normalization was taken by another tool of the same server. */
  collision?: string;
}

/**
 * The valid form of one name: lower-cased, every character outside
 * `[a-z0-9_]` replaced by `_`, `mcp_` prefixed unless it starts with a letter,
 * cut to 64 characters: `get-sum` -> `get_sum`, `2fa` -> `mcp_2fa`, an empty
 * name -> `mcp_tool`. The result always matches the name rule.
 */
export function normalizeToolName(mcpName: string): string {
  let name = mcpName.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  if (!/^[a-z]/.test(name)) name = `${LEADING_PREFIX}${name}`;
  if (name === LEADING_PREFIX) name = `${LEADING_PREFIX}tool`;
  return name.slice(0, MAX_TOOL_NAME_LENGTH);
}

/**
 * Normalizes every name of one server, resolving collisions deterministically
 * (whatever order the server lists its tools in): a name that is already
 * valid keeps it; otherwise, among names that normalize alike, the one first
 * in code-point order keeps the plain form and the others get `_2`, `_3`...
 * (the first suffix not taken by any tool of the server). Duplicate server
 * names are listed once. The result follows code-point order of `mcpNames`.
 */
export function normalizeToolNames(mcpNames: readonly string[]): NormalizedName[] {
  const unique = [...new Set(mcpNames)].sort(byCodePoint);
  const byBase = new Map<string, string[]>();
  for (const mcpName of unique) {
    const base = normalizeToolName(mcpName);
    byBase.set(base, [...(byBase.get(base) ?? []), mcpName]);
  }
  const taken = new Set(byBase.keys());
  const out = new Map<string, NormalizedName>();
  for (const [base, names] of byBase) {
    // An exact match wins the plain name: renaming a tool whose name was already valid would surprise.
    const winner = names.find((n) => n === base) ?? names[0];
    for (const mcpName of names) {
      if (mcpName === winner) {
        out.set(mcpName, { mcpName, name: base });
        continue;
      }
      const name = withSuffix(base, taken);
      taken.add(name);
      out.set(mcpName, { mcpName, name, collision: `'${mcpName}' and '${winner}' both normalize to '${base}'` });
    }
  }
  return unique.map((n) => out.get(n) as NormalizedName);
}

function withSuffix(base: string, taken: ReadonlySet<string>): string {
  for (let i = 2; ; i += 1) {
    const suffix = `_${i}`;
    const candidate = `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
