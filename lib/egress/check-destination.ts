/**
 * The egress decision (DESIGN D4): may this URL be fetched under this posture,
 * and if so, at which addresses? The addresses returned are the ones the sender
 * must connect to (pinned): resolving again at connect time would let a DNS
 * rebinding attacker answer "public" here and "private" there.
 */
import { promises as dns } from "node:dns";
import type { AbortSignalLike } from "./call-deadline";
import type { AddressClass } from "./classify-address";
import { classifyAddress, describeAddressClass, parseIp } from "./classify-address";
import type { EgressBlock } from "./egress-block";
import { NO_WIDENING, egressBlock } from "./egress-block";
import type { AllowlistMatch } from "./match-allowlist";
import { matchAllowlist } from "./match-allowlist";
import type { ParsedEgressUrl } from "./parse-url";
import { parseEgressUrl } from "./parse-url";
import type { EgressPosture } from "./posture";
import { EGRESS_ENV } from "./posture";

/** One DNS answer. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to ALL its addresses. Rejects when the name does not resolve. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver: every answer, in the order the OS gives them. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A destination that may be fetched; connect only to `addresses`. */
export interface EgressAllowed {
  verdict: "allowed";
  /** Why it is allowed: a public destination, an allowlist entry, or ALLOW_PRIVATE. */
  rule: "public" | "allowlisted" | "allow-private";
  url: URL;
  /** Host as the socket layer sees it (bare IP or name as written); with `port`, the pin key. */
  hostname: string;
  port: number;
  /** First vetted address (what the trace shows). */
  address: string;
  family: 4 | 6;
  /** Every vetted address; the connection must use one of these and nothing else. */
  addresses: readonly ResolvedAddress[];
}

/** The name did not resolve: a network failure, not a refusal. */
export interface EgressUnresolved {
  verdict: "unresolved";
  hostname: string;
  reason: string;
}

/** checkDestination's answer: allowed (with the addresses to pin), blocked, or unresolved. */
export type EgressDecision = EgressAllowed | EgressBlock | EgressUnresolved;

/** Optional inputs of checkDestination. */
export interface CheckDestinationOptions {
  /** Resolves a relative `url` (a redirect's Location) against this URL. */
  base?: string | URL;
  /** Abandons the DNS lookup (the decision is then `unresolved`). */
  signal?: AbortSignalLike;
}

const LOOPBACK_PIN: readonly ResolvedAddress[] = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

/** The host as an operator would write it in INSIKA_EGRESS_HOSTS. */
function hostForHint(p: ParsedEgressUrl): string {
  if (p.host.kind === "name") return p.host.name;
  return p.host.ip.kind() === "ipv6" ? `[${p.hostname}]` : p.hostname;
}

type NonPublic = Exclude<AddressClass, { class: "public" }>;

function phrase(c: NonPublic): string {
  return `${c.address}${c.via ? ` (${c.via})` : ""}, a ${c.label}`;
}

function addressReason(p: ParsedEgressUrl, c: NonPublic): string {
  if (p.host.kind === "ip") return describeAddressClass(c);
  if (p.host.loopback) return `${p.host.name} is a loopback host name`;
  return `${p.host.name} resolves to ${phrase(c)}`;
}

/** Lets a caller's deadline cut a resolver short (dns.lookup itself cannot be cancelled). */
function abortable<T>(work: Promise<T>, signal?: AbortSignalLike): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

// The addresses a name resolves to, vetted as literals; only name lookups are asynchronous.
async function lookupAddresses(
  p: ParsedEgressUrl & { host: { kind: "name" } },
  resolver: Resolver,
  signal?: AbortSignalLike,
): Promise<readonly ResolvedAddress[] | EgressUnresolved | EgressBlock> {
  let answers: ResolvedAddress[];
  try {
    answers = await abortable(resolver(p.hostname), signal);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    return {
      verdict: "unresolved",
      hostname: p.host.name,
      reason: `could not resolve ${p.host.name}${code ? ` (${code})` : ""}`,
    };
  }
  if (answers.length === 0) {
    return { verdict: "unresolved", hostname: p.host.name, reason: `${p.host.name} has no addresses` };
  }
  const seen = new Map<string, ResolvedAddress>();
  for (const a of answers) {
    // Only strict literals: an odd answer must not be re-interpreted by the socket layer.
    const ip = typeof a?.address === "string" ? parseIp(a.address) : null;
    if (ip === null) return egressBlock("bad-dns-answer", `${p.host.name} resolved to a non-IP answer`, NO_WIDENING);
    const address = classifyAddress(ip).address;
    seen.set(address, { address, family: ip.kind() === "ipv6" ? 6 : 4 });
  }
  return [...seen.values()];
}

/**
 * Decides whether `url` may be fetched under `posture` (DESIGN D4), in order:
 * URL syntax and scheme (parseEgressUrl); an always-blocked IP literal; the
 * allowlist, when set (nothing else is reachable; unlisted names are not
 * resolved); the port rule (443, 80 with http; else an allowlist `host:port` or
 * ALLOW_PRIVATE); then every address (the literal, 127.0.0.1/::1 for localhost
 * names, or ALL DNS answers) is classified: any always-blocked address blocks
 * even a listed host; private addresses need ALLOW_PRIVATE or a listing, and a
 * mixed public+private answer blocks as `mixed-dns-answer`.
 * Never throws for hostile input; a resolver failure is `unresolved`.
 */
export async function checkDestination(
  url: string | URL,
  posture: EgressPosture,
  resolver: Resolver = systemResolver,
  options: CheckDestinationOptions = {},
): Promise<EgressDecision> {
  return decideDestination(url, posture, resolver, options);
}

/**
 * checkDestination itself, answering synchronously whenever no DNS lookup is
 * needed: an IP literal, a localhost name, or a refusal made before any lookup.
 * Only a lookup makes it return a Promise. The send loop uses it to skip two
 * promise hops per request on that (common) path; the decision is the same.
 */
export function decideDestination(
  url: string | URL,
  posture: EgressPosture,
  resolver: Resolver = systemResolver,
  options: CheckDestinationOptions = {},
): EgressDecision | Promise<EgressDecision> {
  const p = parseEgressUrl(url, posture, options.base);
  if ("verdict" in p) return p;
  if (p.host.kind === "ip") {
    // By its text (the bare literal): classifyAddress memoizes string inputs.
    const c = classifyAddress(p.hostname);
    if (c.class === "always-blocked") return egressBlock("always-blocked", addressReason(p, c), NO_WIDENING);
  }

  const match = matchAllowlist(posture, p);
  const refused = posture.listing === "also" ? listedAlsoRule(p, posture, match) : listedOnlyRule(p, posture, match);
  if (refused) return refused;

  if (p.host.kind === "ip") {
    return vetAddresses(p, posture, match, [{ address: p.hostname, family: p.host.ip.kind() === "ipv6" ? 6 : 4 }]);
  }
  if (p.host.loopback) return vetAddresses(p, posture, match, LOOPBACK_PIN);
  const named = p as ParsedEgressUrl & { host: { kind: "name" } };
  return lookupAddresses(named, resolver, options.signal).then((addresses) =>
    Array.isArray(addresses)
      ? vetAddresses(p, posture, match, addresses)
      : (addresses as EgressUnresolved | EgressBlock),
  );
}

const HTTPS_PORTS: readonly number[] = [443];
const HTTP_AND_HTTPS_PORTS: readonly number[] = [443, 80];

function hostsVar(posture: EgressPosture): string {
  return posture.hostsVar ?? EGRESS_ENV.hosts;
}

// INSIKA_EGRESS_HOSTS semantics: a set allowlist is the only set of reachable
// hosts; ports 443 (and 80 with http) unless `host:port` is listed or ALLOW_PRIVATE.
function listedOnlyRule(p: ParsedEgressUrl, posture: EgressPosture, match: AllowlistMatch): EgressBlock | null {
  if (posture.hosts.length > 0 && !match.listed) {
    const host = hostForHint(p);
    const defaultPort = p.port === (p.url.protocol === "https:" ? 443 : 80);
    return egressBlock(
      "not-allowlisted",
      `${host} is not in the egress allowlist`,
      `add ${host}${defaultPort ? "" : `:${p.port}`} to ${hostsVar(posture)}`,
    );
  }
  const defaultPorts = posture.allowHttp ? HTTP_AND_HTTPS_PORTS : HTTPS_PORTS;
  if (!defaultPorts.includes(p.port) && !posture.allowPrivate && !match.portListed) {
    const host = hostForHint(p);
    return egressBlock(
      "port",
      `port ${p.port} is not allowed (${defaultPorts.join(" and ")} only)`,
      `list ${host}:${p.port} in ${hostsVar(posture)} or set ${EGRESS_ENV.allowPrivate}=1 (dev only)`,
    );
  }
  return null;
}

// INSIKA_PROVIDER_HOSTS semantics: public https on 443 for anyone; a listed host
// (entry without port: any port) may also use plain http (and be private, see vetAddresses).
function listedAlsoRule(p: ParsedEgressUrl, posture: EgressPosture, match: AllowlistMatch): EgressBlock | null {
  if (match.listed) return null;
  const host = hostForHint(p);
  if (p.url.protocol === "http:" && !posture.allowHttp) {
    return egressBlock(
      "plain-http",
      "plain http is not allowed (https only)",
      `list ${host} in ${hostsVar(posture)} or use https`,
    );
  }
  if (p.port !== 443) {
    return egressBlock(
      "port",
      `port ${p.port} is not allowed (443 only)`,
      `list ${host}:${p.port} in ${hostsVar(posture)}`,
    );
  }
  return null;
}

// The last step of the decision: classify every address the request may connect to.
function vetAddresses(
  p: ParsedEgressUrl,
  posture: EgressPosture,
  match: AllowlistMatch,
  addresses: readonly ResolvedAddress[],
): EgressDecision {
  const classes = addresses.map((a) => classifyAddress(a.address));
  const blocked = classes.find((c): c is NonPublic => c.class === "always-blocked");
  if (blocked) return egressBlock("always-blocked", addressReason(p, blocked), NO_WIDENING);
  const priv = classes.find((c): c is NonPublic => c.class === "private");
  if (priv && !posture.allowPrivate && !match.listed) {
    const host = hostForHint(p);
    const hint =
      posture.listing === "also"
        ? `list ${host} in ${hostsVar(posture)}`
        : `list ${host} in ${hostsVar(posture)} or set ${EGRESS_ENV.allowPrivate}=1 (dev only)`;
    if (classes.some((c) => c.class === "public")) {
      // Connecting to the public half would still be a gamble on which answer a retry gets.
      return egressBlock(
        "mixed-dns-answer",
        `${host} resolves to both public and non-public addresses (${phrase(priv)})`,
        hint,
      );
    }
    return egressBlock("private-address", addressReason(p, priv), hint);
  }

  const first = addresses[0] as ResolvedAddress;
  return {
    verdict: "allowed",
    rule: match.listed ? "allowlisted" : priv ? "allow-private" : "public",
    url: p.url,
    hostname: p.hostname,
    port: p.port,
    address: first.address,
    family: first.family,
    addresses,
  };
}
