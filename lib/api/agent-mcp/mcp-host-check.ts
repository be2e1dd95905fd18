/**
 * DNS-rebinding protection for the agents' MCP endpoints, on by default: the Host header,
 * and the Origin header when there is one, must name loopback (localhost, *.localhost,
 * 127.0.0.1, [::1], any port) or a host the operator listed in INSIKA_MCP_ALLOWED_HOSTS
 * (a name, matching any port, or host:port). A page on another site that rebinds its name
 * to this machine sends its own name in both, and is refused.
 */

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

export interface AllowedHosts {
  /** Names allowed on any port (lower case). */
  names: ReadonlySet<string>;
  /** host:port pairs allowed exactly (lower case). */
  hostPorts: ReadonlySet<string>;
}

/** Parses INSIKA_MCP_ALLOWED_HOSTS (CSV); empty entries are ignored. */
export function parseAllowedHosts(csv: string | undefined): AllowedHosts {
  const names = new Set<string>();
  const hostPorts = new Set<string>();
  for (const raw of (csv ?? "").split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (/:\d+$/.test(entry) && !/^[^[]*:[^\]]*:/.test(entry)) hostPorts.add(entry);
    else names.add(entry);
  }
  return { names, hostPorts };
}

/** Whether a Host value (`name[:port]`) is allowed. */
export function isAllowedHost(host: string, allowed: AllowedHosts): boolean {
  const value = host.trim().toLowerCase();
  if (!value || /[\s/@\\]/.test(value)) return false;
  const match = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return false;
  const name = match[1]!.replace(/\.$/, "");
  if (LOOPBACK_NAMES.has(name) || name.endsWith(".localhost")) return true;
  if (allowed.names.has(name)) return true;
  return match[2] !== undefined && allowed.hostPorts.has(`${name}:${match[2]}`);
}

export type HostVerdict = { ok: true } | { ok: false; reason: string };

/** Checks a request's Host and Origin; the reason names the header refused. */
export function checkMcpRequestHost(headers: { get(name: string): string | null }, allowed: AllowedHosts): HostVerdict {
  const host = headers.get("host");
  if (!host || !isAllowedHost(host, allowed)) {
    return {
      ok: false,
      reason: `Host header ${JSON.stringify(host ?? "")} is not allowed (INSIKA_MCP_ALLOWED_HOSTS lists the hosts besides loopback)`,
    };
  }
  const origin = headers.get("origin");
  if (origin === null) return { ok: true };
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return { ok: false, reason: `Origin header ${JSON.stringify(origin)} is not a URL` };
  }
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || !isAllowedHost(parsed.host, allowed)) {
    return {
      ok: false,
      reason: `Origin ${JSON.stringify(origin)} is not allowed (INSIKA_MCP_ALLOWED_HOSTS lists the hosts besides loopback)`,
    };
  }
  return { ok: true };
}
