/**
 * IP address classification for the egress guard (DESIGN D4).
 *
 * ipaddr.js's `range()` is not enough on its own: it calls several ranges that
 * must never be reached from a server `unicast` (cloud metadata endpoints that
 * sit in CGNAT/ULA/public space, documentation and benchmarking prefixes), and
 * it does not look inside transition forms (6to4, Teredo, NAT64) where an IPv6
 * address smuggles an IPv4 one. So this module keeps its own ordered table and
 * classifies every embedded IPv4 address too; the strictest answer wins.
 */
import { isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

/** A parsed IP address (ipaddr.js object). */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** Private ranges: reachable only with INSIKA_EGRESS_ALLOW_PRIVATE or an allowlist entry. */
export type PrivateKind = "loopback" | "rfc1918" | "cgnat" | "ula" | "special";

/** Ranges that no posture can open. */
export type BlockedKind = "unspecified" | "multicast" | "broadcast" | "link-local" | "ipv4-compatible" | "metadata";

interface Base {
  /** Canonical text form (dotted quad, or RFC 5952 for IPv6). */
  address: string;
  family: 4 | 6;
  /** Set when the verdict comes from an IPv4 address embedded in an IPv6 one. */
  via?: string;
}

/** The result of {@link classifyAddress}; `label` is human text for error messages. */
export type AddressClass =
  | (Base & { class: "public" })
  | (Base & { class: "private"; kind: PrivateKind; label: string })
  | (Base & { class: "always-blocked"; kind: BlockedKind; label: string });

type RuleVerdict = "private" | "always-blocked" | "transition";

/** Where an IPv6 transition address keeps its IPv4 address. */
type Embedding = "last32" | "nat64-local" | "6to4" | "teredo";

interface Rule {
  range: [IpAddress, number];
  verdict: RuleVerdict;
  kind: PrivateKind | BlockedKind;
  label: string;
  embeds?: Embedding;
}

function rule(
  cidr: string,
  verdict: RuleVerdict,
  kind: PrivateKind | BlockedKind,
  label: string,
  embeds?: Embedding,
): Rule {
  return { range: ipaddr.parseCIDR(cidr), verdict, kind, label, embeds };
}

// First match wins, so the specific entries (metadata) come before the ranges holding them.
const V4_RULES: readonly Rule[] = [
  rule("169.254.169.254/32", "always-blocked", "metadata", "cloud metadata service (AWS, GCP, Azure, OpenStack, ...)"),
  rule("169.254.170.2/32", "always-blocked", "metadata", "AWS ECS task metadata"),
  rule("169.254.170.23/32", "always-blocked", "metadata", "AWS EKS Pod Identity agent"),
  rule("100.100.100.200/32", "always-blocked", "metadata", "Alibaba Cloud metadata service"),
  rule("192.0.0.192/32", "always-blocked", "metadata", "Oracle Cloud metadata service"),
  // Azure's platform endpoint sits in public space and answers only from inside Azure.
  rule("168.63.129.16/32", "always-blocked", "metadata", "Azure platform endpoint (WireServer)"),
  // The whole of 0/8 is "this network": only valid as a source, and 0.0.0.0 reaches local services.
  rule("0.0.0.0/8", "always-blocked", "unspecified", "unspecified / this-network address (0.0.0.0/8)"),
  rule("255.255.255.255/32", "always-blocked", "broadcast", "broadcast address"),
  rule("224.0.0.0/4", "always-blocked", "multicast", "multicast address (224.0.0.0/4)"),
  rule("169.254.0.0/16", "always-blocked", "link-local", "link-local address (169.254.0.0/16)"),
  rule("127.0.0.0/8", "private", "loopback", "loopback address (127.0.0.0/8)"),
  rule("10.0.0.0/8", "private", "rfc1918", "private address (RFC 1918, 10.0.0.0/8)"),
  rule("172.16.0.0/12", "private", "rfc1918", "private address (RFC 1918, 172.16.0.0/12)"),
  rule("192.168.0.0/16", "private", "rfc1918", "private address (RFC 1918, 192.168.0.0/16)"),
  rule("100.64.0.0/10", "private", "cgnat", "carrier-grade NAT address (100.64.0.0/10)"),
  rule("192.0.0.0/24", "private", "special", "IETF protocol assignment (192.0.0.0/24)"),
  rule("192.0.2.0/24", "private", "special", "documentation address (TEST-NET-1)"),
  rule("198.51.100.0/24", "private", "special", "documentation address (TEST-NET-2)"),
  rule("203.0.113.0/24", "private", "special", "documentation address (TEST-NET-3)"),
  rule("198.18.0.0/15", "private", "special", "benchmarking address (198.18.0.0/15)"),
  rule("192.88.99.0/24", "private", "special", "deprecated 6to4 relay anycast (192.88.99.0/24)"),
  rule("240.0.0.0/4", "private", "special", "reserved address (240.0.0.0/4)"),
];

const V6_RULES: readonly Rule[] = [
  rule("fd00:ec2::254/128", "always-blocked", "metadata", "AWS instance metadata service (IPv6)"),
  rule("fd00:ec2::23/128", "always-blocked", "metadata", "AWS EKS Pod Identity agent (IPv6)"),
  rule("fd20:ce::254/128", "always-blocked", "metadata", "GCP metadata server (IPv6)"),
  rule("::/128", "always-blocked", "unspecified", "unspecified address (::)"),
  rule("::1/128", "private", "loopback", "loopback address (::1)"),
  // Transition forms: the embedded IPv4 address decides (see embeddedIPv4).
  rule("::ffff:0:0/96", "transition", "special", "IPv4-mapped", "last32"),
  rule("::ffff:0:0:0/96", "transition", "special", "IPv4-translated", "last32"),
  // Deprecated IPv4-compatible form: some stacks still route it to the IPv4 address.
  rule("::/96", "always-blocked", "ipv4-compatible", "IPv4-compatible address (::/96)"),
  rule("64:ff9b::/96", "transition", "special", "NAT64", "last32"),
  rule("64:ff9b:1::/48", "private", "special", "local-use NAT64 address (64:ff9b:1::/48)", "nat64-local"),
  rule("2002::/16", "transition", "special", "6to4", "6to4"),
  rule("2001::/32", "transition", "special", "Teredo", "teredo"),
  rule("ff00::/8", "always-blocked", "multicast", "multicast address (ff00::/8)"),
  rule("fe80::/10", "always-blocked", "link-local", "link-local address (fe80::/10)"),
  rule("fec0::/10", "private", "special", "deprecated site-local address (fec0::/10)"),
  rule("fc00::/7", "private", "ula", "unique local address (fc00::/7)"),
  rule("100::/64", "private", "special", "discard-only address (100::/64)"),
  rule("2001:db8::/32", "private", "special", "documentation address (2001:db8::/32)"),
  rule("3fff::/20", "private", "special", "documentation address (3fff::/20)"),
  rule("2001:2::/48", "private", "special", "benchmarking address (2001:2::/48)"),
  rule("2001::/23", "private", "special", "IETF protocol assignment (2001::/23)"),
  rule("5f00::/16", "private", "special", "SRv6 SID block (5f00::/16)"),
];

// Outside 2000::/3 nothing is assigned as global unicast; treat it as non-public.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

const RANK = { public: 0, private: 1, "always-blocked": 2 } as const;

// Bounded memo tables for parseIp and classifyAddress (both pure functions of the
// literal). Oldest entry evicted first; hostile input can only churn them.
const MAX_CACHED = 1024;
const PARSED = new Map<string, IpAddress>();
const CLASSIFIED = new Map<string, AddressClass>();

function remember<V>(table: Map<string, V>, key: string, value: V): void {
  if (table.size >= MAX_CACHED) {
    const oldest = table.keys().next();
    if (!oldest.done) table.delete(oldest.value);
  }
  table.set(key, value);
}

function freezeIp(ip: IpAddress): IpAddress {
  Object.freeze(ip.kind() === "ipv4" ? (ip as ipaddr.IPv4).octets : (ip as ipaddr.IPv6).parts);
  return Object.freeze(ip);
}

/**
 * Parses an IP literal strictly: IPv4 only as four-part decimal (no octal/hex/short
 * forms, which WHATWG URL has already normalized for URLs), IPv6 per RFC 4291.
 * Returns null for anything else, including names.
 */
export function parseIp(text: string): IpAddress | null {
  // The same few literals come back on every call (a tool's host, a backend's
  // address): parsed once, the frozen result is shared (ipaddr.js objects are
  // never mutated after construction; freezing makes sure).
  const hit = PARSED.get(text);
  if (hit !== undefined) return hit;
  const ip = parseIpUncached(text);
  if (ip !== null) remember(PARSED, text, freezeIp(ip));
  return ip;
}

function parseIpUncached(text: string): IpAddress | null {
  // node:net's checks first: ipaddr.js's isValid* throw and catch internally (~30 µs a miss).
  if (isIPv4(text)) return ipaddr.IPv4.parse(text);
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const pct = bare.indexOf("%");
  const addr = pct < 0 ? bare : bare.slice(0, pct);
  // ipaddr.js alone is too lenient here: it reads `::a.b.c.d` as IPv4-*mapped* and
  // accepts hex/octal in a dotted tail. Validate with inet_pton's rules (node:net),
  // then let the WHATWG host parser rewrite any dotted tail as hex before ipaddr sees it.
  if (!isIPv6(addr)) return null;
  let canonical = addr;
  if (addr.includes(".")) {
    try {
      canonical = new URL(`http://[${addr}]/`).hostname.slice(1, -1);
    } catch {
      return null;
    }
  }
  const ip = ipaddr.IPv6.parse(canonical);
  if (pct >= 0) ip.zoneId = bare.slice(pct + 1);
  return ip;
}

function firstMatch(ip: IpAddress, rules: readonly Rule[]): Rule | undefined {
  return rules.find((r) => r.range[0].kind() === ip.kind() && ip.match(r.range));
}

function v4FromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** IPv4 addresses carried inside an IPv6 transition address, with a label for messages. */
function embeddedIPv4(ip: ipaddr.IPv6, how: Embedding): { ip: ipaddr.IPv4; via: string }[] {
  const p = ip.parts as [number, number, number, number, number, number, number, number];
  switch (how) {
    case "6to4":
      return [{ ip: v4FromWords(p[1], p[2]), via: "6to4" }];
    case "teredo":
      // The server sits in bits 32-63; the client's address is stored bit-inverted in 96-127.
      return [
        { ip: v4FromWords(p[2], p[3]), via: "Teredo server" },
        { ip: v4FromWords(p[6] ^ 0xffff, p[7] ^ 0xffff), via: "Teredo client" },
      ];
    case "nat64-local":
      return [{ ip: v4FromWords(p[6], p[7]), via: "local-use NAT64" }];
    case "last32":
      // IPv4-mapped, IPv4-translated and well-known NAT64: named after the rule.
      return [{ ip: v4FromWords(p[6], p[7]), via: "" }];
  }
}

function fromRule(r: Rule, address: string, family: 4 | 6): AddressClass {
  if (r.verdict === "always-blocked") {
    return { class: "always-blocked", kind: r.kind as BlockedKind, label: r.label, address, family };
  }
  return { class: "private", kind: r.kind as PrivateKind, label: r.label, address, family };
}

function classifyV4(ip: ipaddr.IPv4): AddressClass {
  const address = ip.toString();
  const r = firstMatch(ip, V4_RULES);
  return r ? fromRule(r, address, 4) : { class: "public", address, family: 4 };
}

function classifyV6(ip: ipaddr.IPv6): AddressClass {
  const address = ip.toRFC5952String();
  // A zone id means a scoped (link-local) destination whatever the bits say.
  if (ip.zoneId !== undefined) {
    return { class: "always-blocked", kind: "link-local", label: "scoped address with a zone id", address, family: 6 };
  }
  const r = firstMatch(ip, V6_RULES);
  let own: AddressClass;
  if (r === undefined) {
    own = ip.match(GLOBAL_UNICAST_V6)
      ? { class: "public", address, family: 6 }
      : { class: "private", kind: "special", label: "address outside global unicast (2000::/3)", address, family: 6 };
  } else if (r.verdict === "transition") {
    own = { class: "public", address, family: 6 };
  } else {
    own = fromRule(r, address, 6);
  }
  if (r?.embeds === undefined) return own;
  // The embedded IPv4 address is where packets really go: take the strictest verdict.
  let worst = own;
  for (const inner of embeddedIPv4(ip, r.embeds)) {
    const c = classifyV4(inner.ip);
    // On a tie the embedded address wins: it names where the packets really go.
    if (RANK[c.class] > RANK[worst.class] || (c.class !== "public" && RANK[c.class] === RANK[worst.class])) {
      const form = inner.via || r.label;
      worst = { ...c, address, family: 6, via: `${form} form of ${c.address}` };
    }
  }
  return worst;
}

/**
 * Classifies one IP address as `public`, `private` (opened by ALLOW_PRIVATE or the
 * allowlist) or `always-blocked` (never reachable). Accepts a strict IP literal
 * (see {@link parseIp}; IPv6 may be bracketed) or an ipaddr.js object.
 * Throws TypeError for a string that is not an IP literal: callers classify names
 * by resolving them first.
 */
export function classifyAddress(input: string | IpAddress): AddressClass {
  if (typeof input === "string") {
    const hit = CLASSIFIED.get(input);
    if (hit !== undefined) return hit;
  }
  const ip = typeof input === "string" ? parseIp(input) : input;
  if (ip === null) throw new TypeError(`not an IP address: ${JSON.stringify(input)}`);
  const c = ip.kind() === "ipv4" ? classifyV4(ip as ipaddr.IPv4) : classifyV6(ip as ipaddr.IPv6);
  if (typeof input === "string") remember(CLASSIFIED, input, Object.freeze(c));
  return c;
}

/** Human text for a non-public class, e.g. `127.0.0.1 is a loopback address (127.0.0.0/8)`. */
export function describeAddressClass(c: AddressClass): string {
  if (c.class === "public") return `${c.address} is a public address`;
  const via = c.via ? ` (${c.via})` : "";
  return `${c.address}${via} is a ${c.label}`;
}
