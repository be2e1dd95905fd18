/**
 * Host *names* the egress guard decides on without DNS (DESIGN D4): `localhost`
 * names are loopback by definition (RFC 6761) and are never sent to a resolver,
 * whose answer could differ; metadata names are refused before any lookup so an
 * attacker cannot learn anything from the attempt.
 */

/**
 * Well-known cloud metadata host names. Not exhaustive: the address table in
 * classify-address.ts is the real defense; this list gives a clear message and
 * avoids a DNS query for the obvious cases.
 */
const METADATA_HOSTNAMES: ReadonlySet<string> = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.ec2.internal",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
  "metadata.packet.net",
]);

/** What a host name means to the guard before any resolution. */
export type HostnameClass = "loopback" | "metadata" | "ordinary";

/**
 * Lower-cases a DNS name and drops one trailing dot (`Example.COM.` -> `example.com`),
 * the form the allowlist and the tables compare against.
 */
export function normalizeHostname(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith(".") ? lower.slice(0, -1) : lower;
}

/**
 * Classifies a host name (not an IP literal): `localhost` and `*.localhost` are
 * `loopback`, known metadata names are `metadata`, anything else is `ordinary`
 * and must be resolved and its addresses classified.
 */
export function classifyHostname(name: string): HostnameClass {
  const n = normalizeHostname(name);
  if (n === "localhost" || n.endsWith(".localhost")) return "loopback";
  if (METADATA_HOSTNAMES.has(n)) return "metadata";
  return "ordinary";
}
