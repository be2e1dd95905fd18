/**
 * Turns a data tool definition plus one call's arguments and turn context
 * into a concrete HTTP request (DESIGN D5): built component by component,
 * never by splicing text. Pure apart from reading secrets; sends nothing.
 */
import type { DataToolDefinition, HttpMethod, TurnContext } from "@/lib/tools/types";
import type { SecretSource } from "@/lib/secrets/secret-source";
import { buildBody } from "./build-body";
import { buildUrl } from "./build-url";
import { errorMessage } from "@/lib/errors";
import {
  BuildError,
  declaredParameters,
  defineOwn,
  exactPlaceholder,
  isPlainObject,
  renderParts,
  resolvePlaceholder,
  splitTemplateCached,
  type TemplateScope,
} from "./template-scope";

/** A request ready to send. `headers` keep the definition's spelling of names. */
export interface BuiltRequest {
  method: HttpMethod;
  /** The absolute URL, fragment removed. */
  url: string;
  /** The same URL, parsed: what the egress guard checks and the request is sent to (one parse per call). */
  target: URL;
  headers: Record<string, string>;
  /** JSON text, when the tool has a body. */
  body?: string;
}

/**
 * `secretValues` lists every secret value read for this call (also on failure,
 * when some were read before the refusal), so callers can redact by value.
 * `secretHeaders` are the built header names that carry secrets.
 */
export type BuildRequestResult =
  | { ok: true; request: BuiltRequest; secretValues: string[]; secretHeaders: string[] }
  | { ok: false; error: string; secretValues: string[] };

const NO_SECRET_HEADERS: ReadonlySet<string> = new Set();

// What undici accepts in a header value (RFC 9110 field-value, obs-text allowed).
const HEADER_VALUE_CHARS = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Builds the request for one call. `args` should already have passed
 * validateArguments; they are used exactly as sent (no coercion), each value
 * substituted once and never re-expanded.
 *
 * - `{{param}}` from `args` (declared parameters only), `{{ctx.*}}` from `ctx`
 *   only (a missing key is an error), `{{secret.*}}` from `secrets` and only in
 *   a header listed in `secret_headers` (a missing secret is an error naming it).
 * - URL: see buildUrl (per-segment encoding, `.`/`..` refused, origin fixed).
 * - Headers: a value that is exactly `{{p}}` for an absent optional argument
 *   drops the header; a value with CR, LF or NUL (or any character HTTP cannot
 *   carry) is refused.
 * - Body: see buildBody; `Content-Type: application/json` is added when the
 *   definition does not set one.
 *
 * Never throws; errors never contain a secret value.
 */
export function buildRequest(
  tool: DataToolDefinition,
  args: unknown,
  ctx: TurnContext,
  secrets: SecretSource,
): BuildRequestResult {
  const secretValues: string[] = [];
  try {
    if (!isPlainObject(args)) throw new BuildError("arguments must be a JSON object");
    const scope: TemplateScope = {
      args,
      declared: declaredParameters(tool.parameters),
      ctx: isPlainObject(ctx) ? ctx : {},
    };
    const req = tool.request;
    const url = buildUrl(req.url, req.query ?? {}, scope);
    const listed = tool.secret_headers ?? [];
    const secretNames = listed.length === 0 ? NO_SECRET_HEADERS : new Set(listed.map((h) => h.toLowerCase()));
    const headers: Record<string, string> = {};
    const secretHeaders: string[] = [];
    for (const [name, template] of Object.entries(req.headers ?? {})) {
      const isSecret = secretNames.has(name.toLowerCase());
      const value = buildHeader(name, template, isSecret, scope, secrets, secretValues);
      if (value === null) continue;
      defineOwn(headers, name, value);
      if (isSecret) secretHeaders.push(name);
    }
    const body = buildBody(req.body, scope);
    const request: BuiltRequest = { method: req.method, url: url.href, target: url, headers };
    if (body !== null) {
      request.body = body;
      if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
        defineOwn(headers, "Content-Type", "application/json");
      }
    }
    return { ok: true, request, secretValues, secretHeaders };
  } catch (e) {
    const error = e instanceof BuildError ? e.message : `could not build the request: ${errorMessage(e)}`;
    return { ok: false, error, secretValues };
  }
}

// Returns the header value, or null to leave the header out.
function buildHeader(
  name: string,
  template: string,
  isSecret: boolean,
  scope: TemplateScope,
  secrets: SecretSource,
  secretValues: string[],
): string | null {
  const where = `request.headers.${name}`;
  const parts = splitTemplateCached(template);
  const exact = exactPlaceholder(parts);
  if (exact && exact.kind === "param" && resolvePlaceholder(exact, scope, where).kind === "absent") return null;
  let value = "";
  for (const part of parts) {
    if (part.type === "placeholder" && part.placeholder.kind === "secret") {
      if (!isSecret)
        throw new BuildError(`${where}: {{secret.*}} is allowed only inside a header listed in secret_headers`);
      value += readSecret(part.placeholder.name, where, secrets, secretValues);
    } else {
      value += renderParts([part], scope, where, identity);
    }
  }
  // Checked on the finished value: a model value, a context value or a secret
  // could each carry a line break that would smuggle in another header.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\r\n\u0000]/.test(value)) throw new BuildError(`${where}: the value contains CR, LF or NUL (refused)`);
  if (!HEADER_VALUE_CHARS.test(value)) {
    throw new BuildError(`${where}: the value contains characters an HTTP header cannot carry`);
  }
  return value;
}

function identity(text: string): string {
  return text;
}

function readSecret(name: string, where: string, secrets: SecretSource, secretValues: string[]): string {
  let value: string | undefined;
  try {
    value = secrets.read(name);
  } catch {
    value = undefined;
  }
  if (typeof value !== "string" || value === "") {
    throw new BuildError(
      `${where}: secret '${name}' is not provisioned (set INSIKA_SECRET_${name.toUpperCase()} or add a file '${name}' to INSIKA_SECRETS_DIR)`,
    );
  }
  if (!secretValues.includes(value)) secretValues.push(value);
  return value;
}
