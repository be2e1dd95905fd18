/**
 * The URL rule of a data tool, checked at ingestion on the template (after
 * manifest env substitution, before any turn): http/https only, and the
 * destination (scheme, host, port) fixed by the operator. Placeholders may
 * fill the path and query; the egress guard still checks every real call.
 */
import { splitTemplate } from "./placeholders";

/** The exact message the spec gives for a non-http(s) or unparseable URL. */
export const URL_SCHEME_MESSAGE = "url must be http/https";

// Stands in for a placeholder while parsing; lowercase so host normalization
// keeps it findable, and unlikely in a real host name.
const MARK = "insikaplaceholder";

// The authority as WHATWG would find it for a special scheme: after
// `scheme:`, any run of slashes or backslashes, up to the next delimiter.
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*([^/\\?#]*)/;

/**
 * Problems of `url` (already trimmed), or [] when it is acceptable.
 * `url must be http/https` for another scheme, an unparseable URL, or an
 * unresolved `{{env.*}}` (a literal there is not a URL, as specified); a
 * placeholder in the scheme/host/port or credentials in the URL are refused
 * with their own message. Never throws.
 */
export function checkUrlTemplate(url: string): string[] {
  const parts = splitTemplate(url);
  if (parts.some((p) => p.type === "placeholder" && p.placeholder.kind === "env")) {
    return [URL_SCHEME_MESSAGE];
  }
  const probe = parts
    .map((p) => (p.type === "placeholder" ? MARK : p.type === "text" ? p.text : p.raw))
    .join("");
  // WHATWG silently drops tabs/newlines and trims spaces, so what is stored
  // would differ from what is sent; refuse instead of guessing. (Checked on
  // the probe: `{{ q }}` may have spaces inside its braces.)
  if (hasSpaceOrControl(probe)) {
    return ["request.url must not contain spaces or control characters"];
  }
  const hostFromPlaceholder =
    "request.url: the scheme, host and port must be literal (a placeholder there would let the model choose the destination)";
  const authority = AUTHORITY.exec(url)?.[1];
  if (authority !== undefined && authority.includes("{{")) return [hostFromPlaceholder];
  let parsed: URL;
  try {
    parsed = new URL(probe);
  } catch {
    return [URL_SCHEME_MESSAGE];
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return [URL_SCHEME_MESSAGE];
  // Belt and braces for shapes the textual authority match could miss.
  if ([parsed.hostname, parsed.port, parsed.username, parsed.password].some((s) => s.includes(MARK))) {
    return [hostFromPlaceholder];
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return ["request.url must not contain credentials (user:password@): send them in a header listed in secret_headers"];
  }
  return [];
}

function hasSpaceOrControl(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return true;
  }
  return false;
}
