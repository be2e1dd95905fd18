/**
 * What a request says about where it came from and how it arrived: whether it was served
 * over https (directly or behind a proxy that sets X-Forwarded-Proto) and whether its
 * Origin is the origin it was sent to.
 */

interface HeaderSource {
  get(name: string): string | null;
}

/** True when the request reached us over https (X-Forwarded-Proto's first hop, else the URL). */
export function isHttpsRequest(headers: HeaderSource, url?: string): boolean {
  const forwarded = headers.get("x-forwarded-proto");
  if (forwarded) return forwarded.split(",")[0]!.trim().toLowerCase() === "https";
  return url !== undefined && url.toLowerCase().startsWith("https:");
}

/**
 * True when the request's Origin names the host it was sent to (X-Forwarded-Host, else
 * Host). A missing Origin is same-origin only when `allowMissing` (browsers omit it on
 * same-origin GETs, never on a POST).
 */
export function isSameOrigin(headers: HeaderSource, allowMissing: boolean): boolean {
  const origin = headers.get("origin");
  if (origin === null) return allowMissing;
  const host = (headers.get("x-forwarded-host") ?? headers.get("host") ?? "").split(",")[0]!.trim().toLowerCase();
  if (!host) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  return parsed.host.toLowerCase() === host;
}
