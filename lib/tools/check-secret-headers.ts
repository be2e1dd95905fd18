/**
 * `secret_headers`: the headers whose values may hold `{{secret.*}}` and are
 * masked in traces and dropped on a cross-origin redirect. Listing a header
 * that does not exist would promise masking for nothing, so it is refused.
 */
import type { JsonValue } from "./types";

/**
 * Returns the list as given ([] when absent or null), or null after pushing
 * problems: not a list, a blank entry, a name listed twice (case-insensitive),
 * a name that is not a key of `headers` (case-insensitive; not checked when
 * `headers` is null because the headers themselves were invalid).
 */
export function checkSecretHeaders(
  raw: JsonValue | undefined,
  headers: Record<string, string> | null,
  problems: string[],
): string[] | null {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push("secret_headers must be a list of header names");
    return null;
  }
  const declared = new Set(Object.keys(headers ?? {}).map((h) => h.toLowerCase()));
  const seen = new Set<string>();
  const out: string[] = [];
  let ok = true;
  raw.forEach((h, i) => {
    if (typeof h !== "string" || h.trim() === "") {
      problems.push(`secret_headers[${i}] must be a header name`);
      ok = false;
      return;
    }
    const lower = h.toLowerCase();
    if (seen.has(lower)) {
      problems.push(`secret_headers: '${h}' is listed twice`);
      ok = false;
    } else if (headers && !declared.has(lower)) {
      problems.push(`secret_headers: '${h}' is not a header in request.headers`);
      ok = false;
    }
    seen.add(lower);
    out.push(h);
  });
  return ok ? out : null;
}
