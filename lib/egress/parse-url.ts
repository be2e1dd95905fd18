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
import { parseUrlForm } from "./url-form";

export type { ParsedUrlForm } from "./url-form";
export { MAX_URL_BYTES, parseUrlForm } from "./url-form";

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
    return egressBlock(
      "plain-http",
      "plain http is not allowed (https only)",
      `set ${EGRESS_ENV.allowHttp}=1 (dev only) or use https`,
    );
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
