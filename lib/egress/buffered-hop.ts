/**
 * The transport of a guarded request whose caller wants the whole body (a tool call, an MCP
 * message): one hop sent with undici's `dispatch()` and its response read into memory as it
 * arrives, up to the decoded-body cap. Same request on the wire as `request()`, but no
 * response stream per call: on a loopback call that stream (undici's body Readable and the
 * listeners that read it) cost ~35 us of ~250 us, measured side by side.
 *
 * An encoded body (gzip, deflate, br) goes through the same decoders and cap as a streamed one
 * (decode-body.ts); a plain body is collected directly. A redirect's body is drained (at most
 * 64 KiB, so the socket can be reused) and not kept.
 */
import { PassThrough } from "node:stream";
import type { Dispatcher } from "undici";
import type { AbortSignalLike } from "./call-deadline";
import { decodeBody, readCapped } from "./decode-body";
import { REDIRECT_DRAIN_BYTES, REDIRECTS, type HopInit, type HopResponse } from "./send-with-redirects";

/** What a buffered hop answers: the status, the headers (lower-cased, repeats joined) and the body read. */
export interface BufferedResponse extends HopResponse {
  headers: Record<string, string>;
  /** Decoded, at most `maxBytes` long. */
  body: Buffer;
  /** The decoded body was longer than `maxBytes`; `body` is its prefix. */
  truncated: boolean;
}

/** How much of a body to read, and when to stop early. */
export interface BufferedRead {
  maxBytes: number;
  /** Sees each decoded chunk with the headers; true ends the read there (the body so far is the result). */
  stopReading?: (chunk: Buffer, headers: Readonly<Record<string, string>>) => boolean;
}

/** A hop transport for sendWithRedirects that reads each response whole (see the module comment). */
export function bufferedHop(read: BufferedRead) {
  return (url: URL, init: HopInit): Promise<BufferedResponse> =>
    new Promise<BufferedResponse>((resolve, reject) => {
      const handler = new BufferingHandler(init, read, resolve, reject);
      try {
        init.dispatcher.dispatch(
          {
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method: init.method as Dispatcher.HttpMethod,
            headers: init.headers,
            body: init.body,
          },
          handler,
        );
      } catch (err) {
        handler.onResponseError(null, err);
      }
    });
}

/** Lower-cased names, repeated headers joined with `, `. */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function discardNothing(): Promise<void> {
  return Promise.resolve();
}

// undici's request controller, as far as this handler uses it.
interface Controller {
  abort(reason: unknown): void;
  pause(): void;
  resume(): void;
}

/** One response being read (undici handler API: onRequestStart ... onResponseEnd / onResponseError). */
class BufferingHandler {
  #controller: Controller | null = null;
  #settled = false;
  #ended = false;
  #status = 0;
  #headers: Record<string, string> = {};
  #mode: "collect" | "drain" | "decode" = "collect";
  #chunks: Buffer[] = [];
  #total = 0;
  /** Decode mode: the encoded bytes go in here; readCapped reads the decoders' output. */
  #encoded: PassThrough | null = null;

  private readonly signal: AbortSignalLike;

  constructor(
    private readonly init: HopInit,
    private readonly read: BufferedRead,
    private readonly resolve: (response: BufferedResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.signal = init.signal;
    this.signal.addEventListener("abort", this.#onAbort);
  }

  // The caller's deadline or cancellation: undici then reports the reason to onResponseError.
  // Before the request has started (waiting for a connection), the call fails at once.
  #onAbort = (): void => {
    if (this.#controller) this.#controller.abort(this.signal.reason);
    else this.#fail(this.signal.reason);
  };

  onRequestStart(controller: Controller): void {
    this.#controller = controller;
    if (this.#settled || this.signal.aborted) controller.abort(this.signal.reason);
  }

  onResponseStart(controller: Controller, statusCode: number, headers: Record<string, string | string[]>): void {
    this.#status = statusCode;
    this.#headers = flattenHeaders(headers);
    this.init.onResponseStart(statusCode);
    if (this.init.method === "HEAD" || statusCode === 204 || statusCode === 304) {
      // No body by definition: answered now, whatever the server sends after (undici reads or
      // refuses it; the connection stays undici's to keep or close).
      this.#succeed(Buffer.alloc(0), false, { abort: false });
      return;
    }
    if (REDIRECTS.has(statusCode) && this.#headers.location !== undefined) {
      this.#mode = "drain";
      return;
    }
    const encoding = this.#headers["content-encoding"];
    if (encoding === undefined || encoding === "" || encoding === "identity") return;
    // decodeBody throws for a coding it cannot undo (zstd...): that is this request's error.
    const encoded = new PassThrough();
    let decoded;
    try {
      decoded = decodeBody(encoded, encoding);
    } catch (err) {
      this.#fail(err);
      return;
    }
    this.#mode = "decode";
    this.#encoded = encoded;
    encoded.on("drain", () => controller.resume());
    const stop = this.read.stopReading;
    const headersRead = this.#headers;
    const stopWhen =
      stop &&
      ((chunk: Buffer) => {
        try {
          return stop(chunk, headersRead);
        } catch (err) {
          this.#fail(err); // as on a plain body: the request's error, not an exception in zlib's callback
          return true;
        }
      });
    readCapped(decoded, this.read.maxBytes, stopWhen).then(
      ({ body, truncated }) => this.#succeed(body, truncated),
      (err: unknown) => this.#fail(err),
    );
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.#settled) return;
    if (this.#mode === "decode") {
      if (!(this.#encoded as PassThrough).write(chunk)) controller.pause();
      return;
    }
    if (this.#mode === "drain") {
      this.#total += chunk.length;
      if (this.#total > REDIRECT_DRAIN_BYTES) this.#succeed(Buffer.alloc(0), false);
      return;
    }
    const { maxBytes, stopReading } = this.read;
    if (this.#total + chunk.length > maxBytes) {
      this.#chunks.push(chunk.subarray(0, maxBytes - this.#total));
      this.#total = maxBytes;
      this.#succeed(Buffer.concat(this.#chunks, this.#total), true);
      return;
    }
    this.#chunks.push(chunk);
    this.#total += chunk.length;
    if (stopReading === undefined) return;
    let stop: boolean;
    try {
      stop = stopReading(chunk, this.#headers);
    } catch (err) {
      // The caller's own bug: this request's error, not an exception inside undici.
      this.#fail(err);
      return;
    }
    if (stop) this.#succeed(Buffer.concat(this.#chunks, this.#total), false);
  }

  onResponseEnd(): void {
    this.#ended = true;
    if (this.#mode === "decode") {
      this.#encoded?.end();
      return;
    }
    if (this.#mode === "drain") this.#succeed(Buffer.alloc(0), false);
    else this.#succeed(Buffer.concat(this.#chunks, this.#total), false);
  }

  onResponseError(_controller: unknown, err: unknown): void {
    this.#ended = true;
    this.#encoded?.destroy(err instanceof Error ? err : new Error(String(err)));
    this.#fail(err);
  }

  #succeed(body: Buffer, truncated: boolean, { abort = true } = {}): void {
    if (this.#settled) return;
    this.#settle(abort);
    this.resolve({ statusCode: this.#status, headers: this.#headers, body, truncated, discard: discardNothing });
  }

  #fail(err: unknown): void {
    if (this.#settled) return;
    this.#settle(true);
    this.reject(err);
  }

  // Settled before the response ended (cap, stop, drain limit, a decoding error): the rest is
  // not read, so the request is aborted and its socket closed, as destroying a stream would.
  #settle(abort: boolean): void {
    this.#settled = true;
    this.signal.removeEventListener("abort", this.#onAbort);
    if (abort && !this.#ended) this.#controller?.abort(new Error("response read stopped (cap, stop or error)"));
    this.#encoded?.destroy();
  }
}
