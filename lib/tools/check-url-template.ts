/**
 * The URL rule of a data tool, checked at ingestion on the template (after
 * manifest env substitution, before any turn): http/https only, the
 * destination (scheme, host, port) fixed by the operator, and no form the
 * egress guard refuses under every posture. Placeholders may fill the path
 * and query; the egress guard still checks every real call.
 */
import { checkUrlForm } from "@/lib/egress/url-form";
import { splitTemplate, type TemplatePart } from "./placeholders";

/** The exact message the spec gives for a non-http(s) or unparseable URL. */
export const URL_SCHEME_MESSAGE = "url must be http/https";

// Stands in for a placeholder while looking for one in the host; lowercase so
// host normalization keeps it findable, and unlikely in a real host name.
const MARK = "insikaplaceholder";

// What a placeholder stands for when judging the form. A call substitutes each
// value percent-encoded for its component, so a value can never add a refused
// character (space, control, backslash, `@` in the authority): the literal text
// decides the form. One character keeps the length check a lower bound.
const VALUE = "x";

// The authority as WHATWG would find it for a special scheme: after
// `scheme:`, any run of slashes or backslashes, up to the next delimiter.
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*([^/\\?#]*)/;

const HOST_FROM_PLACEHOLDER =
  "request.url: the scheme, host and port must be literal (a placeholder there would let the model choose the destination)";

/**
 * Problems of `url` (already trimmed), or [] when it is acceptable.
 * `url must be http/https` for another scheme, an unparseable URL, or an
 * unresolved `{{env.*}}` (a literal there is not a URL, as specified); a
 * placeholder in the scheme/host/port is refused with its own message; every
 * other refusal is the egress guard's own (lib/egress checkUrlForm: length,
 * whitespace/control characters, backslash, userinfo, port, zone id,
 * metadata host name), judged on the template with each placeholder standing
 * in for a value. Address rules are the guard's, per call. Never throws.
 */
export function checkUrlTemplate(url: string): string[] {
  const parts = splitTemplate(url);
  if (parts.some((p) => p.type === "placeholder" && p.placeholder.kind === "env")) {
    return [URL_SCHEME_MESSAGE];
  }
  const authority = AUTHORITY.exec(url)?.[1];
  if (authority !== undefined && authority.includes("{{")) return [HOST_FROM_PLACEHOLDER];

  const block = checkUrlForm(probe(parts, VALUE));
  if (block !== null) {
    if (block.rule === "scheme" || block.rule === "invalid-url") return [URL_SCHEME_MESSAGE];
    return [`request.url is refused by the egress guard (${block.rule}): ${block.reason}`];
  }
  // Belt and braces for shapes the textual authority match could miss.
  let parsed: URL;
  try {
    parsed = new URL(probe(parts, MARK));
  } catch {
    return [URL_SCHEME_MESSAGE];
  }
  if ([parsed.hostname, parsed.port, parsed.username, parsed.password].some((s) => s.includes(MARK))) {
    return [HOST_FROM_PLACEHOLDER];
  }
  return [];
}

// The template with every placeholder replaced by `stand`; malformed runs kept as written.
function probe(parts: readonly TemplatePart[], stand: string): string {
  return parts.map((p) => (p.type === "placeholder" ? stand : p.type === "text" ? p.text : p.raw)).join("");
}
