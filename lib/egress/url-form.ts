/**
 * The form of a URL, as the egress guard judges it (DESIGN D4): the checks on
 * its text that hold under every posture. Pure (no node:* imports), so the same
 * code runs in the guard, in save-time validation on the server, and in the
 * Studio's field validation in the browser: save time and call time cannot
 * disagree about a URL's form. The raw string is screened first for what
 * WHATWG silently "repairs" (tabs/newlines removed, `\` read as `/`), since
 * those repairs are how filter-bypass payloads are built.
 */
import { classifyHostname, normalizeHostname } from "./classify-hostname";
import type { EgressBlock } from "./egress-block";
import { NO_WIDENING, egressBlock } from "./egress-block";

/** Longest URL accepted, in UTF-8 bytes of the raw string and in characters of the normalized href. */
export const MAX_URL_BYTES = 8 * 1024;

const FIX_URL = "none: fix the URL";

/** C0 controls, space, DEL, C1 controls, or Unicode whitespace anywhere in the string. */
function hasControlOrSpace(raw: string): boolean {
  let ascii = true;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c <= 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
    if (c > 0x7f) ascii = false;
  }
  // The ASCII whitespace \s matches is all <= 0x20, refused above: only other text can hold more.
  return !ascii && /\s/u.test(raw);
}
// An authority section (after `//`) holding an `@`: userinfo, even when empty (`http://@host`).
const AUTHORITY_WITH_AT = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#]*@/i;
// An IPv6 literal with a zone id (`[fe80::1%25eth0]`); WHATWG rejects it, we name it.
const ZONE_ID = /\[[^\]]*%/;

function screenRaw(raw: string): EgressBlock | null {
  if (utf8Length(raw) > MAX_URL_BYTES) {
    return egressBlock("too-long", `URL is longer than ${MAX_URL_BYTES} bytes`, FIX_URL);
  }
  if (hasControlOrSpace(raw)) {
    return egressBlock("control-chars", "URL contains whitespace or control characters", FIX_URL);
  }
  if (raw.includes("\\")) return egressBlock("backslash", "URL contains a backslash", FIX_URL);
  // Both patterns need a literal character; includes() is the cheap test for the usual URL without it.
  if (raw.includes("@") && AUTHORITY_WITH_AT.test(raw)) {
    return egressBlock("userinfo", "URL contains credentials (user@host)", "none: send credentials in a header");
  }
  if (raw.includes("[") && ZONE_ID.test(raw))
    return egressBlock("zone-id", "IPv6 zone ids are not allowed", NO_WIDENING);
  return null;
}

/** A URL whose text passed the posture-independent checks of {@link parseUrlForm}. */
export interface ParsedUrlForm {
  ok: true;
  url: URL;
}

// The port text of an authority, when it has one (`[v6]:port` or `host:port`); bounded, linear.
const AUTHORITY_PORT = /^[a-z][a-z0-9+.-]*:\/\/(?:\[[^\]]*\]|[^/?#:[]*):([^/?#]*)/i;

function badPortReason(raw: string): string | null {
  const port = AUTHORITY_PORT.exec(raw)?.[1];
  if (port === undefined || port === "") return null;
  if (/^\d{1,5}$/.test(port) && Number(port) <= 65535) return null;
  return `port ${JSON.stringify(port.slice(0, 20))} is not a valid port (1-65535)`;
}

/**
 * The checks on a URL's text that hold under every posture: at most 8 KiB,
 * no whitespace or control characters, no backslash, no userinfo, no IPv6
 * zone id, a valid port (1-65535), parseable by WHATWG `URL`, scheme http(s).
 * Save-time validation calls it through checkUrlForm. `base` resolves a
 * relative URL; the raw-string screens apply to `input` itself.
 */
export function parseUrlForm(input: string | URL, base?: string | URL): ParsedUrlForm | EgressBlock {
  const raw = typeof input === "string" ? input : input.href;
  const screened = screenRaw(raw);
  if (screened) return screened;

  let url: URL;
  try {
    // A URL already parsed (a data tool's built request) is checked as it is, not parsed again.
    url = input instanceof URL && base === undefined ? input : new URL(raw, base);
  } catch {
    const badPort = badPortReason(raw);
    if (badPort !== null) return egressBlock("bad-port", badPort, FIX_URL);
    return egressBlock("invalid-url", "not a valid absolute URL", FIX_URL);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return egressBlock("scheme", `scheme ${JSON.stringify(url.protocol)} is not allowed (http(s) only)`, NO_WIDENING);
  }
  // Belt and braces: the raw screen catches `@`, this catches anything WHATWG inferred.
  if (url.username !== "" || url.password !== "") {
    return egressBlock("userinfo", "URL contains credentials (user@host)", "none: send credentials in a header");
  }
  // Percent-encoding and IDN mapping can make the normalized form longer than the raw one.
  if (url.href.length > MAX_URL_BYTES) {
    return egressBlock("too-long", `URL is longer than ${MAX_URL_BYTES} bytes`, FIX_URL);
  }
  // WHATWG accepts port 0, which no socket can connect to.
  if (url.port === "0") return egressBlock("bad-port", "port 0 is not a valid port (1-65535)", FIX_URL);
  return { ok: true, url };
}

// UTF-8 length without Buffer (this module also runs in the browser).
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The guard's refusal of `url` that no posture can lift, judged on its text
 * alone: its form ({@link parseUrlForm}) or a cloud metadata host name. Null
 * when some posture could allow it; the address rules (private, loopback,
 * always-blocked ranges, DNS answers) are decided per call by checkDestination.
 * Write paths call this when a URL is saved (data tool templates, an agent's
 * model.base_url). Synchronous, DNS-free, never throws.
 */
export function checkUrlForm(url: string): EgressBlock | null {
  const form = parseUrlForm(url);
  if (!("ok" in form)) return form;
  const name = normalizeHostname(form.url.hostname);
  if (classifyHostname(name) === "metadata")
    return egressBlock("metadata-host", `${name} is a cloud metadata host`, NO_WIDENING);
  return null;
}
