/**
 * Literal credentials in headers: a header that carries a credential by its
 * name, written with its value instead of a `{{secret.*}}` reference. Stored
 * that way, the secret is on disk, in every version, export and backup
 * (DESIGN D3 says it never is). Every write path refuses one; doctor lists the
 * rows stored before the rule existed.
 */
import { splitTemplate } from "./placeholders";

// Names that are credentials whatever their words (lowercase).
const CREDENTIAL_NAMES = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "x-api-key",
  "api-key",
  "apikey",
  "x-auth-token",
  "x-access-token",
  "private-token",
  "x-vault-token",
  "x-amz-security-token",
  "x-goog-api-key",
  "ocp-apim-subscription-key",
]);
// A word containing one of these makes the name a credential (`X-Refresh-Token`, `ClientSecret`, `X-Db-Password`).
const CREDENTIAL_PARTS = [
  "token",
  "secret",
  "passw",
  "passphrase",
  "credential",
  "apikey",
  "accesskey",
  "bearer",
  "jwt",
];
// Whole words that do (`X-Upstream-Authorization`, `X-Db-Pwd`); `auth` alone is not one (`X-Auth-User`
// names a user), `X-Auth-Token` and `X-Auth-Key` are caught by token and by the key rule.
const CREDENTIAL_WORDS = new Set(["pwd", "authorization"]);
// `key` alone is too common (`X-Idempotency-Key`, `X-Cache-Key`): it counts after one of these.
const KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "secret",
  "private",
  "subscription",
  "auth",
  "client",
  "app",
  "application",
  "master",
  "license",
  "account",
  "service",
  "signing",
  "partner",
  "developer",
]);

/**
 * True when a header name says it carries a credential: a known name
 * (Authorization, Proxy-Authorization, Cookie, X-Api-Key, Api-Key,
 * X-Auth-Token, ...), a word containing token/secret/password/credential/
 * apikey, the words authorization or pwd, or `key` right after api/access/secret/
 * private/client/subscription/... Words split at `-`, `_`, `.` and camelCase.
 */
export function isCredentialHeaderName(name: string): boolean {
  if (CREDENTIAL_NAMES.has(name.toLowerCase())) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
  if (words.length === 1 && words[0] === "key") return true;
  return words.some(
    (w, i) =>
      CREDENTIAL_WORDS.has(w) ||
      CREDENTIAL_PARTS.some((part) => w.includes(part)) ||
      (w === "key" && i > 0 && KEY_QUALIFIERS.has(words[i - 1] as string)),
  );
}

/**
 * True when `value` holds literal credential material: no `{{secret.*}}`, and
 * some literal text with a letter or digit once the parts that only frame a
 * placeholder are set aside (an auth scheme word such as `Bearer ` before it,
 * a `name=` label right before it, separators). `Bearer {{ctx.tenant}}` and
 * `sid={{param}}` are not literal; `Bearer abc123` and `lang=en; sid={{p}}` are.
 */
export function hasLiteralCredential(value: string): boolean {
  const parts = splitTemplate(value);
  if (parts.some((p) => p.type === "placeholder" && p.placeholder.kind === "secret")) return false;
  return parts.some((part, i) => {
    if (part.type === "malformed") return ALNUM.test(part.raw);
    if (part.type !== "text") return false;
    const framesPlaceholder = parts[i + 1]?.type === "placeholder";
    let text = framesPlaceholder ? withoutTrailingLabel(part.text) : part.text;
    if (i === 0 && framesPlaceholder && isSchemeWord(text)) text = "";
    return ALNUM.test(text);
  });
}

/**
 * One problem per header of `headers` that is credential-like by name, not
 * listed in `secretHeaders` (unless `exemptSecretHeaders` is false) and
 * literal by value. Each names the header (`<where>.<name>`) and points to
 * `{{secret.*}}`. Problems contain no "; " (messages are joined with it).
 */
export function findLiteralCredentials(
  headers: Readonly<Record<string, string>>,
  secretHeaders: readonly string[],
  options: { where?: string; exemptSecretHeaders?: boolean } = {},
): string[] {
  const where = options.where ?? "request.headers";
  const exempt =
    options.exemptSecretHeaders === false ? new Set<string>() : new Set(secretHeaders.map((h) => h.toLowerCase()));
  const problems: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (exempt.has(name.toLowerCase()) || !isCredentialHeaderName(name) || !hasLiteralCredential(value)) continue;
    problems.push(literalCredentialMessage(`${where}.${name}`, name));
  }
  return problems;
}

/**
 * The refusal for one literal credential at `path`. `secretHeadersField`:
 * whether the write has a secret_headers list to add the header to (an MCP
 * import lists secret headers itself).
 */
export function literalCredentialMessage(path: string, header: string, secretHeadersField = true): string {
  const list = secretHeadersField ? `, list '${header}' in secret_headers,` : "";
  return (
    `${path}: '${header}' carries a credential and its value is written literally, so the secret would be stored on disk. ` +
    `Write it as a reference, e.g. "Bearer {{secret.api_token}}"${list} and provision the value ` +
    `(env INSIKA_SECRET_API_TOKEN or a file api_token in INSIKA_SECRETS_DIR)`
  );
}

const ALNUM = /[A-Za-z0-9]/;
const LABEL_CHAR = /[A-Za-z0-9_.-]/;
// An HTTP auth scheme name (Bearer, Basic, Token, Digest, AWS4-HMAC-SHA256).
const SCHEME = /^[A-Za-z][A-Za-z0-9-]*$/;

// "lang=en; sid=" -> "lang=en; ": a `name=` right before a placeholder labels it.
function withoutTrailingLabel(text: string): string {
  if (!text.endsWith("=")) return text;
  let start = text.length - 1;
  while (start > 0 && LABEL_CHAR.test(text[start - 1] as string)) start -= 1;
  return text.slice(0, start);
}

// "Bearer " (one word, then whitespace) before a placeholder is the auth scheme, not the credential.
function isSchemeWord(text: string): boolean {
  const word = text.trim();
  return text.trimEnd() !== text && SCHEME.test(word);
}
