/**
 * An operation's security requirement -> the headers that carry it, each
 * value a `{{secret.<name>}}` reference (DESIGN D3: the value is provisioned,
 * never stored). Bearer, basic, OAuth 2 and OpenID Connect (a token the
 * operator provisions) go in `Authorization`; an API key in its header. An
 * API key in the query or a cookie cannot be carried (secrets are only
 * allowed in headers): that is a problem for the operation, not a leak.
 */
import type { SecurityScheme } from "./list-operations";
import { trimUnderscores } from "./trim-underscores";

/** A secret an imported tool references, and where it goes. */
export interface RequiredSecret {
  secret: string;
  scheme: string;
  header: string;
}

export type SecurityHeadersResult =
  | { ok: true; headers: Record<string, string>; secretHeaders: string[]; secrets: RequiredSecret[] }
  | { ok: false; problem: string };

export interface SecurityOptions {
  /** The import's name: default secret names are `<import>_<scheme>`. */
  importName: string;
  /** Scheme name -> secret name, replacing the default (the body's `auth`). */
  auth?: Readonly<Record<string, string>>;
}

/**
 * Picks the first alternative of `security` that can be carried in headers
 * (an empty alternative, or no requirement at all, needs no header). When
 * none can, the problem names the first alternative's reason.
 */
export function securityHeaders(
  security: readonly Record<string, unknown>[],
  schemes: Readonly<Record<string, SecurityScheme>>,
  options: SecurityOptions,
): SecurityHeadersResult {
  if (security.length === 0) return { ok: true, headers: {}, secretHeaders: [], secrets: [] };
  let firstProblem: string | null = null;
  for (const requirement of security) {
    const result = carry(Object.keys(requirement), schemes, options);
    if (result.ok) return result;
    firstProblem ??= result.problem;
  }
  return { ok: false, problem: firstProblem ?? "security: no usable security requirement" };
}

function carry(
  names: string[],
  schemes: Readonly<Record<string, SecurityScheme>>,
  options: SecurityOptions,
): SecurityHeadersResult {
  const headers: Record<string, string> = {};
  const secrets: RequiredSecret[] = [];
  for (const name of names) {
    const scheme = Object.hasOwn(schemes, name) ? schemes[name] : undefined;
    if (!scheme) return { ok: false, problem: `security: scheme '${name}' is not defined in the document` };
    const secret = secretName(name, options);
    const placed = place(scheme, secret);
    if (!placed.ok) return { ok: false, problem: `security: scheme '${name}' ${placed.problem}` };
    if (Object.keys(headers).some((h) => h.toLowerCase() === placed.header.toLowerCase())) {
      return { ok: false, problem: `security: two schemes of one requirement both need header '${placed.header}'` };
    }
    Object.defineProperty(headers, placed.header, { value: placed.value, enumerable: true, writable: true });
    secrets.push({ secret, scheme: name, header: placed.header });
  }
  return { ok: true, headers, secretHeaders: Object.keys(headers), secrets };
}

function place(
  scheme: SecurityScheme,
  secret: string,
): { ok: true; header: string; value: string } | { ok: false; problem: string } {
  const ref = `{{secret.${secret}}}`;
  switch (scheme.type) {
    case "http":
      if (scheme.scheme === "bearer") return { ok: true, header: "Authorization", value: `Bearer ${ref}` };
      if (scheme.scheme === "basic") return { ok: true, header: "Authorization", value: `Basic ${ref}` };
      return { ok: false, problem: `is HTTP '${scheme.scheme ?? "?"}' authentication, which an import cannot carry` };
    case "oauth2":
    case "openIdConnect":
      // The token is obtained outside Insika and provisioned as the secret.
      return { ok: true, header: "Authorization", value: `Bearer ${ref}` };
    case "apiKey":
      if (
        scheme.in === "header" &&
        typeof scheme.name === "string" &&
        /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(scheme.name)
      )
        return { ok: true, header: scheme.name, value: ref };
      if (scheme.in === "query")
        return {
          ok: false,
          problem: `puts an API key in the query parameter '${scheme.name ?? "?"}': secrets are only allowed in headers`,
        };
      return {
        ok: false,
        problem: `puts an API key in ${scheme.in === "cookie" ? "a cookie" : `'${String(scheme.in)}'`}: secrets are only allowed in headers`,
      };
    default:
      return { ok: false, problem: `is of type '${scheme.type}', which an import cannot carry` };
  }
}

/** `auth[scheme]` when given, else `<import>_<scheme>` in the secret-name rule (`petstore_api_key`). */
export function secretName(scheme: string, options: SecurityOptions): string {
  if (options.auth && Object.hasOwn(options.auth, scheme)) return options.auth[scheme] as string;
  let name = trimUnderscores(`${options.importName}_${scheme}`.toLowerCase().replace(/[^a-z0-9_]+/g, "_"), {
    start: false,
  });
  if (!/^[a-z_]/.test(name)) name = `s_${name}`;
  return name;
}
