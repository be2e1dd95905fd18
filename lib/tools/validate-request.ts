/**
 * Validates and normalizes `request` and `secret_headers` of a data tool
 * definition: the shape of each field, manifest env substitution, the URL
 * rule, and where each placeholder may appear.
 */
import { checkSecretHeaders } from "./check-secret-headers";
import { checkTemplate } from "./check-template";
import { checkUrlTemplate } from "./check-url-template";
import { mapBodyStrings, normalizeBody } from "./normalize-body";
import { substituteEnv } from "./substitute-env";
import { HTTP_METHODS, type HttpMethod, type JsonValue, type ToolRequest } from "./types";

/** The four ways a data tool is written; only "manifest" substitutes `{{env.*}}`. */
export type ToolWritePath = "api" | "manifest" | "config" | "mcp";

/** What request validation needs from the rest of the definition and from the caller. */
export interface RequestRules {
  writePath: ToolWritePath;
  env: Readonly<Record<string, string | undefined>>;
  isSecretProvisioned?: (name: string) => boolean;
  /** Declared top-level parameter names; null when parameters did not validate. */
  paramNames: ReadonlySet<string> | null;
}

/** The normalized request and the secret header list it was checked against. */
export interface ValidatedRequest {
  request: ToolRequest;
  secretHeaders: string[];
}

const REQUEST_FIELDS = ["method", "url", "headers", "query", "body", "protocol", "mcp_tool"];
// RFC 9110 token: what a header name may be.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Returns the normalized request and secret header list, or null; every
 * problem is pushed onto `problems`. `rawRequest` and `rawSecretHeaders` are
 * JSON values (see to-json-value.ts). Never throws on JSON input.
 */
export function validateRequest(
  rawRequest: JsonValue | undefined,
  rawSecretHeaders: JsonValue | undefined,
  rules: RequestRules,
  problems: string[],
): ValidatedRequest | null {
  if (rawRequest === undefined || rawRequest === null) {
    problems.push("request is required");
    return null;
  }
  if (!isObject(rawRequest)) {
    problems.push("request must be an object");
    return null;
  }
  const start = problems.length;
  const req = rawRequest;
  for (const key of Object.keys(req)) {
    if (!REQUEST_FIELDS.includes(key)) problems.push(`unknown field 'request.${key}'`);
  }

  const method = checkMethod(req.method, problems);
  const protocol = present(req.protocol) ? req.protocol : undefined;
  if (protocol !== undefined && protocol !== "http" && protocol !== "mcp") {
    problems.push(`request.protocol must be "http" or "mcp"`);
  }
  const mcpTool = present(req.mcp_tool) ? req.mcp_tool : undefined;
  if (protocol === "mcp") {
    if (mcpTool === undefined) problems.push(`request.mcp_tool is required when request.protocol is "mcp"`);
    if (method !== null && method !== "POST")
      problems.push(`request.method must be POST when request.protocol is "mcp"`);
  } else if (mcpTool !== undefined) {
    problems.push(`request.mcp_tool is only allowed when request.protocol is "mcp"`);
  }
  if (mcpTool !== undefined && (typeof mcpTool !== "string" || mcpTool.trim() === "")) {
    problems.push("request.mcp_tool must be a non-blank string");
  }

  let url: string | null = null;
  if (!present(req.url)) problems.push("request.url is required");
  else if (typeof req.url !== "string") problems.push("request.url must be a string");
  else url = req.url.trim();

  const headers = stringMap(req.headers, "request.headers", problems, (name) => {
    if (!HEADER_NAME.test(name)) return `request.headers: '${name}' is not a valid header name`;
    return null;
  });
  if (headers) checkHeaderNames(headers, problems);
  const query = stringMap(req.query, "request.query", problems, (name) =>
    name === "" ? "request.query: a parameter name must not be empty" : null,
  );
  const body = normalizeBody(req.body, method, protocol, problems);
  const secretHeaders = checkSecretHeaders(rawSecretHeaders, headers, problems);

  // The URL and placeholder rules still run on whatever is well-shaped, so
  // one response lists every problem the operator must fix.
  const shaped: Shaped = {
    method: method ?? "POST",
    url: url ?? "",
    headers: headers ?? {},
    query: query ?? {},
    body: body ?? undefined,
    protocol,
    mcpTool,
    secretHeaders,
  };
  const done = finish(shaped, url !== null, rules, problems);
  const complete = method !== null && url !== null && headers && query && body !== null && secretHeaders;
  return problems.length > start || !complete || !done ? null : { request: done, secretHeaders };
}

interface Shaped {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  body: { value: JsonValue } | undefined;
  protocol: JsonValue | undefined;
  mcpTool: JsonValue | undefined;
  /** null when secret_headers itself is invalid: secret locations are then not judged. */
  secretHeaders: string[] | null;
}

// Second phase, on a well-shaped request: env substitution, then URL and
// placeholder rules on the substituted text (what will be stored).
function finish(s: Shaped, hasUrl: boolean, rules: RequestRules, problems: string[]): ToolRequest | null {
  const start = problems.length;
  const secretSet = s.secretHeaders === null ? null : new Set(s.secretHeaders.map((h) => h.toLowerCase()));
  const templateRules = (secretAllowed: boolean) => ({
    paramNames: rules.paramNames,
    secretAllowed,
    isSecretProvisioned: rules.writePath === "manifest" ? (rules.isSecretProvisioned ?? (() => false)) : undefined,
  });
  // Substitutes env (manifest only) and checks the result; null on failure.
  const template = (text: string, where: string, secretAllowed: boolean): string | null => {
    let out = text;
    if (rules.writePath === "manifest") {
      const sub = substituteEnv(text, rules.env, where);
      if (!sub.ok) {
        problems.push(...sub.problems);
        return null;
      }
      out = sub.text;
    }
    problems.push(...checkTemplate(out, where, templateRules(secretAllowed)));
    return out;
  };

  const url = hasUrl ? template(s.url, "request.url", false) : null;
  if (url !== null) problems.push(...checkUrlTemplate(url));
  const headers = mapValues(s.headers, (name, v) =>
    template(v, `request.headers.${name}`, secretSet === null || secretSet.has(name.toLowerCase())),
  );
  const query = mapValues(s.query, (name, v) => template(v, `request.query.${name}`, false));
  const body = s.body === undefined ? undefined : mapBodyStrings(s.body.value, "request.body", template, problems);

  if (problems.length > start || url === null) return null;
  const request: ToolRequest = { method: s.method, url, headers, query };
  if (body !== undefined) request.body = body;
  if (s.protocol === "http" || s.protocol === "mcp") request.protocol = s.protocol;
  if (typeof s.mcpTool === "string") request.mcp_tool = s.mcpTool;
  return request;
}

function checkMethod(raw: JsonValue | undefined, problems: string[]): HttpMethod | null {
  const upper = typeof raw === "string" ? raw.trim().toUpperCase() : null;
  if (upper !== null && (HTTP_METHODS as readonly string[]).includes(upper)) return upper as HttpMethod;
  problems.push(`request.method must be one of ${HTTP_METHODS.join(", ")}`);
  return null;
}

// An object of string values (headers, query); absent means {}.
function stringMap(
  raw: JsonValue | undefined,
  where: string,
  problems: string[],
  checkName: (name: string) => string | null,
): Record<string, string> | null {
  if (!present(raw)) return {};
  if (!isObject(raw)) {
    problems.push(`${where} must be an object of strings`);
    return null;
  }
  const out: Record<string, string> = {};
  let ok = true;
  for (const [name, value] of Object.entries(raw)) {
    const bad =
      checkName(name) ??
      (name.includes("{{") ? `${where}: placeholders are allowed in values, not in the name '${name}'` : null);
    if (bad) problems.push(bad);
    if (typeof value !== "string") problems.push(`${where}.${name} must be a string`);
    else if (["\r", "\n", "\0"].some((c) => value.includes(c)))
      problems.push(`${where}.${name} must not contain CR, LF or NUL`);
    else if (!bad) {
      defineOwn(out, name, value);
      continue;
    }
    ok = false;
  }
  return ok ? out : null;
}

// Header names are case-insensitive on the wire: two spellings of one name
// would leave it unclear which value (or which secret rule) applies.
function checkHeaderNames(headers: Record<string, string>, problems: string[]): void {
  const seen = new Set<string>();
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (seen.has(lower)) problems.push(`request.headers: '${name}' is given twice (header names are case-insensitive)`);
    seen.add(lower);
  }
}

function mapValues(
  obj: Record<string, string>,
  fn: (name: string, value: string) => string | null,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(obj)) defineOwn(out, name, fn(name, value) ?? value);
  return out;
}

// Assignment would run the `__proto__` setter for that key; a definition is data.
function defineOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function present(v: JsonValue | undefined): v is JsonValue {
  return v !== undefined && v !== null;
}

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
