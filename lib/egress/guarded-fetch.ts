/**
 * A fetch-shaped face of the guard, only for libraries that insist on `fetch`
 * (the MCP SDK's StreamableHTTPClientTransport, the model providers' SDKs). Same
 * checks and pinning as guardedRequest, but fetch semantics: it throws, and the
 * body streams (MCP answers with long-lived SSE), so there is no body cap —
 * unless the caller asks for the whole body at once (`bufferUpTo`), which is then
 * read before the Response is made, with a cap.
 */
import type { Readable } from "node:stream";
import type { Resolver } from "./check-destination";
import { bufferedHop, type BufferedResponse } from "./buffered-hop";
import { decodeBody, discardBody } from "./decode-body";
import type { EgressBlock, EgressRule } from "./egress-block";
import type { EgressDispatcher } from "./egress-dispatcher";
import { egressDispatcherFor } from "./egress-dispatcher";
import { MAX_REDIRECTS } from "./guarded-request";
import { isEventStream, sseLineEndsToLf } from "./sse-line-ends";
import type { EgressPosture } from "./posture";
import type {
  EgressHop,
  SendWithRedirectsInput,
  SendWithRedirectsOutcome,
  StreamedResponse,
} from "./send-with-redirects";
import { sendWithRedirects } from "./send-with-redirects";

/** Thrown by guardedFetch when the guard refuses; the message is `destination blocked: <reason>`. */
export class EgressBlockedError extends Error {
  readonly rule: EgressRule;
  readonly hint: string;
  readonly reason: string;
  constructor(block: EgressBlock) {
    super(block.message);
    this.name = "EgressBlockedError";
    this.rule = block.rule;
    this.hint = block.hint;
    this.reason = block.reason;
  }
}

/** Optional inputs of guardedFetch. */
export interface GuardedFetchOptions {
  resolver?: Resolver;
  /** Default: the shared dispatcher for the posture. */
  dispatcher?: EgressDispatcher;
  /** Headers holding secrets: with Authorization/Cookie, dropped on a cross-origin redirect. */
  secretHeaderNames?: readonly string[];
  /** Receives the hops of every call (for traces). */
  onHops?: (hops: readonly EgressHop[]) => void;
  /**
   * Read each response whole (decoded) before answering, at most this many bytes: a longer
   * body fails the call. For a caller that reads every answer whole anyway (a provider's
   * non-streaming call): the body is collected as it arrives (bufferedHop) instead of being
   * handed on as a stream that the caller then collects. Absent: the body streams, uncapped.
   */
  bufferUpTo?: number;
  /**
   * Every streamed body is read as an event stream, whatever its content type says (a model
   * provider's streamed step: the AI SDK parses it as SSE without looking): its line ends are
   * rewritten as a `text/event-stream` body's are.
   */
  everyBodyIsEventStream?: boolean;
}

/** The fetch signature the MCP SDK and similar libraries accept. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

async function bodyBytes(body: BodyInit | null | undefined, headers: Headers): Promise<Buffer | null> {
  if (body === null || body === undefined) return null;
  if (typeof body === "string") {
    if (!headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
    return Buffer.from(body, "utf8");
  }
  if (body instanceof URLSearchParams) {
    if (!headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
    return Buffer.from(body.toString(), "utf8");
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof Blob) {
    if (!headers.has("content-type") && body.type) headers.set("content-type", body.type);
    return Buffer.from(await body.arrayBuffer());
  }
  if (body instanceof ReadableStream) return Buffer.from(await new Response(body).arrayBuffer());
  // FormData would need a multipart encoder; no caller of this wrapper sends one.
  throw new TypeError("guardedFetch: unsupported body type");
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else if (value !== undefined) out.append(name, value);
  }
  return out;
}

/** Bytes the web stream buffers ahead of its reader before the socket is paused. */
const WEB_STREAM_HIGH_WATER = 64 * 1024;

/**
 * The decoded body as a web stream, instead of Node 20's Readable.toWeb: that
 * adapter keeps enqueueing data the socket had already delivered after the
 * reader cancelled, which throws "Invalid state: Controller is already closed"
 * as an uncaught exception (the MCP SDK cancels the body of every answer to a
 * notification). Here every event after the end, an error or a cancel is
 * ignored, and a cancel discards the body (freeing the socket). `rewrite`, when given,
 * maps each chunk on its way (in order; an empty result is not enqueued).
 */
function toWebStream(body: Readable, rewrite?: (chunk: Uint8Array) => Uint8Array): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        body.pause();
        body.on("data", (chunk: Buffer | string) => {
          if (settled) return;
          const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : new Uint8Array(chunk);
          const out = rewrite ? rewrite(bytes) : bytes;
          if (out.length > 0) controller.enqueue(out);
          if ((controller.desiredSize ?? 0) <= 0) body.pause();
        });
        body.once("end", () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        body.on("error", (err: unknown) => {
          if (settled) return;
          settled = true;
          controller.error(err);
        });
        body.once("close", () => {
          if (settled) return;
          settled = true;
          controller.error(new TypeError("terminated: the response body closed before its end"));
        });
      },
      pull() {
        body.resume();
      },
      cancel() {
        settled = true;
        discardBody(body);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: WEB_STREAM_HIGH_WATER }),
  );
}

/**
 * Returns a `fetch` for `posture`: every request (and redirect hop) is checked
 * and pinned like guardedRequest's. A refusal throws {@link EgressBlockedError}
 * (`destination blocked: <reason>`); transport failures throw
 * `TypeError("fetch failed", { cause })`; an abort rejects with the signal's
 * reason, as fetch does. The response body is a decoded stream, or with
 * `bufferUpTo` the decoded body read whole (a longer one fails the call). A
 * streamed `text/event-stream` body arrives with its line ends rewritten to LF
 * (sse-line-ends.ts); its Content-Length, as sent, is then an upper bound.
 * `redirect: "manual"` returns the 3xx; `"error"` throws on one.
 */
export function guardedFetch(posture: EgressPosture, options: GuardedFetchOptions = {}): FetchLike {
  const dispatcher = options.dispatcher ?? egressDispatcherFor(posture);
  if (dispatcher.posture !== posture)
    throw new TypeError("guardedFetch: the dispatcher was created for another posture");
  const cap = options.bufferUpTo;
  const buffered = cap === undefined ? undefined : bufferedHop({ maxBytes: cap });

  return async (input, init = {}) => {
    const req = input instanceof Request ? input : null;
    const url = req ? req.url : input instanceof URL ? input.href : String(input);
    const headers = new Headers(init.headers ?? req?.headers);
    const rawBody = init.body !== undefined ? init.body : req?.body ? await req.arrayBuffer() : null;
    const body = await bodyBytes(rawBody, headers);
    const signal = init.signal ?? req?.signal ?? undefined;
    const redirect = init.redirect ?? req?.redirect ?? "follow";
    const hops: EgressHop[] = [];

    const request: SendWithRedirectsInput = {
      method: init.method ?? req?.method ?? "GET",
      url,
      headers: Object.fromEntries(headers),
      body,
      secretHeaderNames: options.secretHeaderNames,
      signal: signal ?? new AbortController().signal,
      redirect: redirect === "follow" ? "follow" : "manual",
      maxRedirects: MAX_REDIRECTS,
    };
    const deps = { posture, resolver: options.resolver, dispatcher };
    let sent: SendWithRedirectsOutcome<StreamedResponse | BufferedResponse>;
    try {
      sent = buffered
        ? await sendWithRedirects(request, deps, hops, buffered)
        : await sendWithRedirects(request, deps, hops);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw new TypeError("fetch failed", { cause: err });
    } finally {
      options.onHops?.(hops);
    }
    if (!sent.ok) {
      if (sent.kind === "blocked") throw new EgressBlockedError(sent.block);
      throw new TypeError("fetch failed", { cause: new Error(sent.error) });
    }

    const { response } = sent;
    if (redirect === "error" && response.statusCode >= 300 && response.statusCode < 400 && response.headers.location) {
      await response.discard();
      throw new TypeError("fetch failed", { cause: new Error("unexpected redirect (redirect: error)") });
    }
    const bodiless = NULL_BODY_STATUSES.has(response.statusCode) || hops[hops.length - 1]?.method === "HEAD";
    if ("truncated" in response) {
      if (response.truncated) {
        throw new TypeError("fetch failed", { cause: new Error(`the response body is larger than ${cap} bytes`) });
      }
      const body = bodiless ? null : response.body;
      return fetchResponse(body, response, decodedHeaders(response.headers), sent.url, hops);
    }
    let stream: ReadableStream<Uint8Array> | null = null;
    const responseHeaders = toHeaders(response.headers);
    const eventStream =
      options.everyBodyIsEventStream === true || isEventStream(responseHeaders.get("content-type") ?? undefined);
    if (bodiless) {
      discardBody(response.body);
    } else {
      let decoded: Readable;
      try {
        decoded = decodeBody(response.body, [response.headers["content-encoding"]].flat().join(", ") || undefined);
      } catch (err) {
        discardBody(response.body);
        throw new TypeError("fetch failed", { cause: err });
      }
      // Content-Length stays as sent: the rewrite never lengthens the body, so it is still an
      // upper bound (a reader capping what it takes can refuse an announced size at once).
      stream = eventStream ? toWebStream(decoded, sseLineEndsToLf()) : toWebStream(decoded);
    }
    return fetchResponse(stream, response, responseHeaders, sent.url, hops);
  };
}

/** The fetch Response of the last hop, with its final URL. */
function fetchResponse(
  body: ReadableStream<Uint8Array> | Buffer | null,
  response: { statusCode: number; statusText?: string },
  headers: Headers,
  url: URL,
  hops: readonly EgressHop[],
): Response {
  // A Buffer is a Uint8Array, which Response takes; TypeScript's DOM types would want an ArrayBuffer-backed view.
  const res = new Response(body as BodyInit | null, {
    status: response.statusCode,
    statusText: response.statusText ?? "",
    headers,
  });
  Object.defineProperty(res, "url", { value: url.href });
  Object.defineProperty(res, "redirected", { value: hops.length > 1 });
  return res;
}

/**
 * A read body's headers: it is decoded already, so its encoding and length as sent no longer
 * describe it (a reader that trusted them would decode it twice or cut it short).
 */
function decodedHeaders(raw: Record<string, string>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (name !== "content-encoding" && name !== "content-length") out.append(name, value);
  }
  return out;
}
