/**
 * A request's query parameters, read as strictly as its body: each at most once.
 * `Object.fromEntries` would keep the last of a repeated parameter, answering a client's
 * mistake as if it had asked for something else. (Whole numbers in them: wholeNumberText.)
 */
import { DomainError } from "@/lib/errors";

/** The parameters as an object; 422 naming a parameter given more than once. */
export function queryObject(params: URLSearchParams): Record<string, string> {
  const query = new Map<string, string>();
  for (const [name, value] of params) {
    if (query.has(name)) throw new DomainError("validation_failed", `${name}: the parameter is given more than once`);
    query.set(name, value);
  }
  // fromEntries defines own properties: a parameter named __proto__ stays a parameter.
  return Object.fromEntries(query);
}
