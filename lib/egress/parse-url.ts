/**
 * URL syntax checks of the egress guard (DESIGN D4). The URL is parsed exactly
 * once, with WHATWG `URL` — the same parser undici uses — so the guard and the
 * sender cannot disagree about the host. The raw string is screened first for
 * what WHATWG silently "repairs" (tabs/newlines removed, `\` read as `/`), since
 * those repairs are how filter-bypass payloads are built.
 */
import type { IpAddress } from "./classify-address";
import { parseIp } from "./classify-address";
import { classifyHostname, normalizeHostname } from "./classify-hostname";
import type { EgressBlock } from "./egress-block";
import { NO_WIDENING, egressBlock } from "./egress-block";
import type { EgressPosture } from "./posture";
import { EGRESS_ENV } from "./posture";

/** Longest URL accepted, in UTF-8 bytes of the raw string and in characters of the normalized href. */
export const MAX_URL_BYTES = 8 * 1024;

/** A URL that passed the syntax checks; its host still needs address checks. */
export interface ParsedEgressUrl {
  ok: true;
  url: URL;
  /** The host as the socket layer sees it: a bare IP (no brackets) or the name as written. */
  hostname: string;
  host:
    | { kind: "ip"; ip: IpAddress }
    /** `name` is normalized (lower case, no trailing dot); `loopback` for localhost names. */
    | { kind: "name"; name: string; loopback: boolean };
  /** Effective port (the scheme's default when the URL has none). */
  port: number;
}

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
  if (Buffer.byteLength(raw, "utf8") > MAX_URL_BYTES) {
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
  if (raw.includes("[") && ZONE_ID.test(raw)) return egressBlock("zone-id", "IPv6 zone ids are not allowed", NO_WIDENING);
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
 * Save-time validation (lib/tools, agent base_url) calls this so a stored URL
 * is never one the guard refuses for its form at call time. `base` resolves a
 * relative URL; the raw-string screens apply to `input` itself.
 */
export function parseUrlForm(input: string | URL, base?: string | URL): ParsedUrlForm | EgressBlock {
  const raw = typeof input === "string" ? input : input.href;
  const screened = screenRaw(raw);
  if (screened) return screened;

  let url: URL;
  try {
    url = new URL(raw, base);
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

/**
 * Parses and screens a URL for egress: the form checks of {@link parseUrlForm},
 * then plain http unless the posture allows it (a posture whose listing is
 * `also` decides http per host later, in checkDestination), and metadata host
 * names. `base` resolves a relative URL (a redirect's Location).
 * Returns the parsed URL or an {@link EgressBlock}.
 */
export function parseEgressUrl(
  input: string | URL,
  posture: EgressPosture,
  base?: string | URL,
): ParsedEgressUrl | EgressBlock {
  const form = parseUrlForm(input, base);
  if (!("ok" in form)) return form;
  const { url } = form;
  if (url.protocol === "http:" && !posture.allowHttp && posture.listing !== "also") {
    return egressBlock("plain-http", "plain http is not allowed (https only)", `set ${EGRESS_ENV.allowHttp}=1 (dev only) or use https`);
  }

  const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const ip = parseIp(url.hostname);
  if (ip !== null) {
    const hostname = ip.kind() === "ipv6" ? url.hostname.slice(1, -1) : url.hostname;
    return { ok: true, url, hostname, host: { kind: "ip", ip }, port };
  }
  const name = normalizeHostname(url.hostname);
  const cls = classifyHostname(name);
  if (cls === "metadata") {
    return egressBlock("metadata-host", `${name} is a cloud metadata host`, NO_WIDENING);
  }
  return { ok: true, url, hostname: url.hostname, host: { kind: "name", name, loopback: cls === "loopback" }, port };
}
