/**
 * The egress posture: what the operator has opened beyond "public https only"
 * (spec "Egress", DESIGN D4). Parsed once from the environment at start; a bad
 * value fails loudly here rather than silently widening or narrowing egress.
 */
import type { IpAddress } from "./classify-address";
import { classifyAddress, parseIp } from "./classify-address";
import { classifyHostname, normalizeHostname } from "./classify-hostname";

/** The environment variables that shape the posture (also used in block hints). */
export const EGRESS_ENV = {
  hosts: "INSIKA_EGRESS_HOSTS",
  allowHttp: "INSIKA_EGRESS_ALLOW_HTTP",
  allowPrivate: "INSIKA_EGRESS_ALLOW_PRIVATE",
} as const;

/**
 * One INSIKA_EGRESS_HOSTS entry. Names match the URL's host name (`suffix`
 * matches sub-domains only, not the apex); `ip` entries (single IPs or CIDRs)
 * match IP-literal URLs only, never a name's DNS answer, so an unlisted name is
 * never even resolved under an allowlist. `port: null` admits the default ports.
 */
export type AllowlistEntry =
  | { kind: "name"; entry: string; name: string; port: number | null }
  | { kind: "suffix"; entry: string; suffix: string; port: number | null }
  | { kind: "ip"; entry: string; range: [IpAddress, number]; port: number | null };

/** What egress may reach. An empty `hosts` means "no allowlist". Treat as immutable. */
export interface EgressPosture {
  readonly allowHttp: boolean;
  readonly allowPrivate: boolean;
  readonly hosts: readonly AllowlistEntry[];
  /**
   * What a non-empty `hosts` means. `only` (the default; INSIKA_EGRESS_HOSTS):
   * nothing else is reachable. `also` (INSIKA_PROVIDER_HOSTS): public https on
   * 443 stays reachable, and a listed host may in addition be private or
   * loopback, use plain http, and use any port (only its own, when the entry
   * names one).
   */
  readonly listing?: "only" | "also";
  /** The variable `hosts` came from, named in refusal hints (default INSIKA_EGRESS_HOSTS). */
  readonly hostsVar?: string;
}

/** Thrown by {@link parsePosture}; the message names the variable and the bad entry. */
export class EgressConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "EgressConfigError";
  }
}

/** The default: public https only. */
export const STRICT_POSTURE: EgressPosture = Object.freeze({ allowHttp: false, allowPrivate: false, hosts: [] });

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["", "0", "false", "no", "off"]);

function parseFlag(env: Record<string, string | undefined>, name: string): boolean {
  const raw = env[name];
  if (raw === undefined) return false;
  const v = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(v)) return true;
  if (FALSE_WORDS.has(v)) return false;
  // An unrecognized value is an operator mistake; guessing either way is worse than failing.
  throw new EgressConfigError(name, `expected 1/true/yes/on or 0/false/no/off, got ${JSON.stringify(raw)}`);
}

function parsePort(text: string): number {
  if (!/^\d{1,5}$/.test(text)) throw new Error(`bad port ${JSON.stringify(text)}`);
  const port = Number(text);
  if (port < 1 || port > 65535) throw new Error(`port ${port} out of range 1-65535`);
  return port;
}

/** Splits `host`, `host:port`, `[v6]`, `[v6]:port` and bare IPv6 (no port possible). */
function splitHostPort(raw: string): { host: string; port: number | null } {
  if (raw.startsWith("[")) {
    const end = raw.indexOf("]");
    if (end < 0) throw new Error("missing ]");
    const rest = raw.slice(end + 1);
    if (rest !== "" && !rest.startsWith(":")) throw new Error(`unexpected ${JSON.stringify(rest)} after ]`);
    return { host: raw.slice(1, end), port: rest === "" ? null : parsePort(rest.slice(1)) };
  }
  const colons = raw.split(":").length - 1;
  if (colons === 1) {
    const i = raw.indexOf(":");
    return { host: raw.slice(0, i), port: parsePort(raw.slice(i + 1)) };
  }
  return { host: raw, port: null };
}

function parseIpEntry(host: string): [IpAddress, number] | null {
  const slash = host.indexOf("/");
  const ip = parseIp(slash < 0 ? host : host.slice(0, slash));
  if (ip === null) {
    if (slash >= 0) throw new Error("not a valid CIDR (IPv4 in dotted decimal, IPv6 per RFC 4291)");
    return null;
  }
  const max = ip.kind() === "ipv4" ? 32 : 128;
  if (slash < 0) {
    if (classifyAddress(ip).class === "always-blocked") {
      throw new Error("this address is always blocked and cannot be allowlisted");
    }
    return [ip, max];
  }
  const bitsText = host.slice(slash + 1);
  const bits = Number(bitsText);
  if (!/^\d{1,3}$/.test(bitsText) || bits > max) throw new Error(`bad prefix length /${bitsText}`);
  return [ip, bits];
}

/** Normalizes a DNS name through WHATWG URL (IDN -> punycode, case), refusing anything else. */
function parseName(host: string): string {
  if (host === "" || /[\s/?#@\\%*[\]]/.test(host)) throw new Error("not a host name");
  let parsed: string;
  try {
    parsed = new URL(`http://${host}/`).hostname;
  } catch {
    throw new Error("not a host name");
  }
  const name = normalizeHostname(parsed);
  // WHATWG turns `2130706433` or `0x7f.1` into an IPv4 address: make the operator say what they mean.
  if (parseIp(name) !== null) throw new Error("write IPv4 addresses in dotted decimal");
  if (name.length > 253 || !/^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/.test(name)) {
    throw new Error("not a host name");
  }
  if (classifyHostname(name) === "metadata") throw new Error("metadata host names cannot be allowlisted");
  return name;
}

function parseEntry(entry: string): AllowlistEntry {
  const { host, port } = splitHostPort(entry);
  const range = parseIpEntry(host);
  if (range !== null) return { kind: "ip", entry, range, port };
  if (host.startsWith("*.")) return { kind: "suffix", entry, suffix: parseName(host.slice(2)), port };
  return { kind: "name", entry, name: parseName(host), port };
}

/**
 * Reads the posture from an environment record. Flags accept 1/true/yes/on and
 * 0/false/no/off (case-insensitive; unset or empty = off). INSIKA_EGRESS_HOSTS is a
 * CSV of exact names, `*.suffix`, IPs and CIDRs, each with an optional `:port`
 * (IPv6 in brackets for a port); empty items are skipped.
 * Throws {@link EgressConfigError} naming the first bad value or entry.
 */
export function parsePosture(env: Record<string, string | undefined>): EgressPosture {
  return Object.freeze({
    allowHttp: parseFlag(env, EGRESS_ENV.allowHttp),
    allowPrivate: parseFlag(env, EGRESS_ENV.allowPrivate),
    hosts: parseHostList(env[EGRESS_ENV.hosts], EGRESS_ENV.hosts),
  });
}

/** The variable that lists the model provider hosts beyond public https (see parseProviderPosture). */
export const PROVIDER_HOSTS_ENV = "INSIKA_PROVIDER_HOSTS";

/**
 * The posture of model provider calls (an agent's `model.base_url` and the
 * default OpenAI/Anthropic endpoints), from the value of INSIKA_PROVIDER_HOSTS
 * (the same syntax as INSIKA_EGRESS_HOSTS). Public https is always allowed; a
 * listed host may also be private or loopback, plain http and on any port (a
 * `host:port` entry: that port only), as local model servers are. Nothing else:
 * the INSIKA_EGRESS_* flags do not widen it. Throws {@link EgressConfigError}.
 */
export function parseProviderPosture(value: string | undefined): EgressPosture {
  return Object.freeze({
    allowHttp: false,
    allowPrivate: false,
    hosts: parseHostList(value, PROVIDER_HOSTS_ENV),
    listing: "also" as const,
    hostsVar: PROVIDER_HOSTS_ENV,
  });
}

/**
 * The posture of one endpoint an operator configured (the OpenTelemetry collector): that
 * host (and port) reachable even when private, loopback or plain http, public https as
 * always, nothing else. `variable` is named in refusals. Throws {@link EgressConfigError}.
 */
export function parseConfiguredEndpointPosture(url: string, variable: string): EgressPosture {
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not an http(s) URL");
    host = parsed.host;
  } catch (err) {
    throw new EgressConfigError(variable, `bad URL ${JSON.stringify(url)}: ${(err as Error).message}`);
  }
  return Object.freeze({
    allowHttp: false,
    allowPrivate: false,
    hosts: parseHostList(host, variable),
    listing: "also" as const,
    hostsVar: variable,
  });
}

function parseHostList(value: string | undefined, variable: string): readonly AllowlistEntry[] {
  const hosts: AllowlistEntry[] = [];
  for (const item of (value ?? "").split(",")) {
    const entry = item.trim();
    if (entry === "") continue;
    try {
      hosts.push(Object.freeze(parseEntry(entry)));
    } catch (err) {
      throw new EgressConfigError(variable, `bad entry ${JSON.stringify(entry)}: ${(err as Error).message}`);
    }
  }
  return Object.freeze(hosts);
}

/**
 * One line for `insika doctor` and the Studio, e.g. `strict: public https only`,
 * `allowlist: only api.example.com; https only`, or
 * `relaxed: plain http allowed; private addresses and any port allowed (dev only)`.
 */
export function describePosture(posture: EgressPosture): string {
  if (posture.listing === "also") {
    if (posture.hosts.length === 0) return "public https only";
    return `public https, and ${posture.hosts.map((h) => h.entry).join(", ")} (listed hosts may be private, plain http, any port)`;
  }
  const parts: string[] = [];
  if (posture.hosts.length > 0) {
    parts.push(`only ${posture.hosts.map((h) => h.entry).join(", ")} (listed hosts may be private)`);
  }
  if (posture.allowHttp) parts.push("plain http allowed");
  else parts.push("https only");
  if (posture.allowPrivate) parts.push("private addresses and any port allowed (dev only)");
  if (!posture.allowHttp && !posture.allowPrivate) {
    return posture.hosts.length > 0 ? `allowlist: ${parts.join("; ")}` : "strict: public https only";
  }
  return `relaxed: ${parts.join("; ")}`;
}
