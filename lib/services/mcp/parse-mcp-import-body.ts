/**
 * The body of POST /v1/mcp/import (and `insika mcp import`): which server,
 * under which instance name, with which headers. Header values may reference
 * secrets (`{{secret.*}}`), which are resolved here for discovery and stored
 * as references for the calls (DESIGN D3: secrets never live on disk).
 */
import { z } from "zod";
import { DomainError, validationFailed } from "@/lib/errors";
import type { SecretSource } from "@/lib/secrets/secret-source";
import { authSchema, resolveImportAuth, type McpImportAuth } from "./mcp-import-auth";
import { hasLiteralCredential, isCredentialHeaderName, literalCredentialMessage, splitTemplate } from "@/lib/tools";

/** The spec's refusal for stdio servers, word for word. */
export const STDIO_REFUSAL = "only HTTP-transport MCP servers are ingestible";

const INSTANCE_NAME = /^[a-z0-9_-]+$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Set by the MCP client itself: an import that sets them would break every call. */
const PROTOCOL_HEADERS = new Set([
  "accept",
  "content-type",
  "content-length",
  "host",
  "connection",
  "transfer-encoding",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
]);

const bodySchema = z.strictObject({
  name: z
    .string()
    .min(1, "name is required")
    .max(48, "name must be at most 48 characters")
    .regex(INSTANCE_NAME, "name must use only a-z, 0-9, _ and -"),
  url: z.string().trim().min(1, "url is required"),
  headers: z.record(z.string(), z.string()).optional(),
  auth: authSchema.optional(),
});

/** A checked import request. */
export interface McpImportRequest {
  /** The instance name (`[a-z0-9_-]`); the group is `mcp:<name>`. */
  name: string;
  url: string;
  /** As stored on each tool: secret references kept as `{{secret.*}}`. */
  headers: Record<string, string>;
  /**
   * Every header of the import: any of them may carry a credential, literal or
   * `{{secret.*}}`, so all are masked in traces and dropped on a cross-origin redirect.
   */
  secretHeaders: string[];
  /** As sent during discovery: secret references replaced by their values. */
  resolvedHeaders: Record<string, string>;
  /** The secret values used, for redaction of anything shown to the caller. */
  secretValues: string[];
  /** OAuth client credentials, when the server is protected (mcp-import-auth.ts). */
  auth?: McpImportAuth;
}

/**
 * Checks `body` (422 naming the problem): a `command` (a stdio server) is
 * refused with {@link STDIO_REFUSAL}; unknown fields, a bad instance name, a
 * non-http(s) URL, a malformed or protocol-owned header, a placeholder other
 * than `{{secret.*}}` in a header, or a secret that is not provisioned are
 * refused. Resolves secrets with `secrets`.
 */
export function parseMcpImportBody(body: unknown, secrets: SecretSource): McpImportRequest {
  if (body !== null && typeof body === "object" && !Array.isArray(body) && "command" in body) {
    throw validationFailed(STDIO_REFUSAL);
  }
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
    throw new DomainError("validation_failed", problems.join("; "));
  }
  const { name, url, headers = {}, auth } = parsed.data;
  checkUrl(url);

  const problems: string[] = [];
  const resolvedHeaders: Record<string, string> = {};
  const stored: Record<string, string> = {};
  const secretHeaders: string[] = [];
  const secretValues: string[] = [];
  const seen = new Set<string>();
  for (const [header, value] of Object.entries(headers)) {
    const lower = header.toLowerCase();
    if (!HEADER_NAME.test(header)) problems.push(`headers: '${header}' is not a valid header name`);
    else if (PROTOCOL_HEADERS.has(lower))
      problems.push(`headers: '${header}' is set by the MCP client and cannot be given`);
    else if (seen.has(lower)) problems.push(`headers: '${header}' is given twice (header names are case-insensitive)`);
    if (/[\r\n\0]/.test(value)) problems.push(`headers.${header} must not contain CR, LF or NUL`);
    seen.add(lower);
    // A literal credential would be stored on every imported tool (DESIGN D3): refused like on every write path.
    if (isCredentialHeaderName(header) && hasLiteralCredential(value))
      problems.push(literalCredentialMessage(`headers.${header}`, header, false));
    const resolved = resolveSecrets(header, value, secrets, problems, secretValues);
    if (resolved === null) continue;
    define(stored, header, value);
    define(resolvedHeaders, header, resolved.value);
    secretHeaders.push(header);
  }
  if (auth && seen.has("authorization"))
    problems.push("headers: 'Authorization' cannot be given with auth (the access token is sent as it)");
  if (problems.length > 0) throw validationFailed(problems.slice(0, 10).join("; "));
  const request: McpImportRequest = { name, url, headers: stored, secretHeaders, resolvedHeaders, secretValues };
  if (auth) {
    request.auth = resolveImportAuth(auth, secrets);
    secretValues.push(request.auth.clientSecret);
  }
  return request;
}

function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw validationFailed("url must be an absolute http/https URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw validationFailed("url must be http/https");
  if (url.includes("{{"))
    throw validationFailed("url must be a literal URL (placeholders are not resolved for MCP imports)");
}

function resolveSecrets(
  header: string,
  value: string,
  secrets: SecretSource,
  problems: string[],
  secretValues: string[],
): { value: string } | null {
  let out = "";
  const before = problems.length;
  for (const part of splitTemplate(value)) {
    if (part.type === "text") out += part.text;
    else if (part.type === "malformed")
      problems.push(`headers.${header}: malformed placeholder '${part.raw.slice(0, 60)}'`);
    else if (part.placeholder.kind !== "secret") {
      problems.push(
        `headers.${header}: only {{secret.*}} placeholders are allowed in MCP import headers, not '${part.placeholder.raw}'`,
      );
    } else {
      const secret = secrets.read(part.placeholder.name);
      if (secret === undefined)
        problems.push(`headers.${header}: secret '${part.placeholder.name}' is not provisioned`);
      else {
        out += secret;
        secretValues.push(secret);
      }
    }
  }
  return problems.length > before ? null : { value: out };
}

// defineProperty: a header named `__proto__` stays data.
function define(obj: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
