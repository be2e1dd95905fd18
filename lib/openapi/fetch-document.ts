/**
 * Fetches an OpenAPI document through the egress guard (the one guarded
 * client, DESIGN §3.11): the same guarded fetch and response cap MCP
 * discovery uses (lib/mcp capped-fetch), so a document URL is held to the
 * same posture as a tool call: loopback and private addresses refused unless
 * INSIKA_EGRESS_* widens it, every redirect hop checked again.
 */
import { EgressBlockedError, guardedFetch, type EgressPosture, type EgressRule, type Resolver } from "@/lib/egress";
import { errorMessage } from "@/lib/errors";
import { cappedFetch } from "@/lib/mcp/capped-fetch";
import { formatBytes } from "@/lib/mcp/import-limits";

export interface FetchDocumentInput {
  url: string;
  posture: EgressPosture;
  resolver?: Resolver;
  maxBytes: number;
  timeoutMs: number;
}

export type FetchDocumentResult =
  | { ok: true; text: string }
  | { ok: false; kind: "blocked"; message: string; rule: EgressRule; hint: string }
  | { ok: false; kind: "too-large" | "failed"; error: string };

/** GETs `url`; a non-2xx answer, a timeout or a body over `maxBytes` is a failure with its reason. Never throws. */
export async function fetchDocument(input: FetchDocumentInput): Promise<FetchDocumentResult> {
  const overflow = new AbortController();
  const signal = AbortSignal.any([AbortSignal.timeout(input.timeoutMs), overflow.signal]);
  const fetcher = cappedFetch(guardedFetch(input.posture, { resolver: input.resolver }), input.maxBytes, () =>
    overflow.abort(),
  );
  const tooLarge = (): FetchDocumentResult => ({
    ok: false,
    kind: "too-large",
    error: `the document is larger than ${formatBytes(input.maxBytes)} (the limit of one import)`,
  });
  try {
    const res = await fetcher(input.url, {
      method: "GET",
      headers: { accept: "application/json, application/yaml, text/yaml, */*;q=0.5" },
      signal,
    });
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, kind: "failed", error: `the document URL answered HTTP ${res.status}` };
    }
    return { ok: true, text: await res.text() };
  } catch (error) {
    if (overflow.signal.aborted) return tooLarge();
    const blocked = findBlocked(error);
    if (blocked)
      return { ok: false, kind: "blocked", message: blocked.message, rule: blocked.rule, hint: blocked.hint };
    if (signal.aborted) return { ok: false, kind: "failed", error: "the document URL did not answer in time" };
    return { ok: false, kind: "failed", error: describe(error) };
  }
}

function findBlocked(error: unknown): EgressBlockedError | null {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e; depth += 1) {
    if (e instanceof EgressBlockedError) return e;
    e = e instanceof Error ? e.cause : undefined;
  }
  return null;
}

function describe(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e; depth += 1) {
    const text = errorMessage(e);
    if (text && !parts.includes(text)) parts.push(text);
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(": ").slice(0, 500) || "unknown error";
}
