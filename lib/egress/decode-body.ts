/**
 * Response body decoding with a cap on *decoded* bytes (DESIGN D2: 1 MiB). The
 * cap must apply after decompression: a 1 KiB gzip bomb can inflate to
 * gigabytes, and reading stops as soon as the decoded output reaches the cap.
 */
import type { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream";
import zlib from "node:zlib";

/** Thrown for a content-encoding we cannot decode (the body is then useless to the caller). */
export class UnsupportedEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported content-encoding: ${encoding}`);
    this.name = "UnsupportedEncodingError";
  }
}

/**
 * The most codings one body may stack. Each is a zlib or brotli decoder made at once, on the
 * main thread: a header of thousands (`br,br,br,...`, one header line) cost about 1.5 s and
 * 130 MB per response before the first byte was read. Real servers apply one, rarely two.
 */
export const MAX_CONTENT_CODINGS = 5;

/** Thrown for a content-encoding stacking more than MAX_CONTENT_CODINGS codings. */
export class TooManyContentCodingsError extends UnsupportedEncodingError {
  constructor(count: number) {
    super(`${count} codings`);
    this.message = `too many content-codings (${count}; at most ${MAX_CONTENT_CODINGS})`;
    this.name = "TooManyContentCodingsError";
  }
}

function decoderFor(coding: string): Transform {
  // Lenient flush like browsers: a stream cut short still yields what was decoded.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (coding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip(flush);
    case "deflate":
      // RFC 9110 "deflate" is zlib-wrapped; createUnzip also accepts a mislabeled gzip stream.
      return zlib.createUnzip(flush);
    case "br":
      return zlib.createBrotliDecompress();
    default:
      throw new UnsupportedEncodingError(coding);
  }
}

/**
 * Returns a stream of the decoded body for a `content-encoding` header value
 * (gzip, x-gzip, deflate, br, identity; several codings are undone in reverse
 * order). Throws {@link UnsupportedEncodingError} for anything else (e.g. zstd,
 * which Node 20's zlib lacks) and for more than MAX_CONTENT_CODINGS codings. Destroying the returned stream destroys `body`.
 */
export function decodeBody(body: Readable, contentEncoding: string | undefined): Readable {
  // Most bodies are not encoded: skip the parse below, which gives the same answer for these.
  if (contentEncoding === undefined || contentEncoding === "" || contentEncoding === "identity") return body;
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity")
    .reverse();
  if (codings.length === 0) return body;
  if (codings.length > MAX_CONTENT_CODINGS) throw new TooManyContentCodingsError(codings.length);
  const decoders = codings.map(decoderFor);
  // pipeline() tears every stage down when any one fails or is destroyed; errors
  // surface to the reader of the last stage, so the callback has nothing to add.
  pipeline([body, ...decoders], () => {});
  return decoders[decoders.length - 1] as Transform;
}

/** A body read up to a cap. */
export interface CappedBody {
  body: Buffer;
  /** True when the body had more bytes than the cap; `body` holds the first `cap` bytes. */
  truncated: boolean;
}

/**
 * Reads `stream` into a Buffer, stopping at `maxBytes`: the stream is destroyed
 * right there, so the rest is never read or decompressed. Rejects with the
 * stream's error (abort, corrupt compressed data), or with
 * ERR_STREAM_PREMATURE_CLOSE when it closes before its end.
 *
 * Listens for `data`/`end`/`error`/`close` directly instead of `for await`:
 * a stream's async iterator costs several microseconds to set up, which is a
 * visible share of a loopback call.
 *
 * `stopWhen`, when given, sees each decoded chunk as it arrives; once it
 * returns true reading stops there (the stream is destroyed) and the body
 * read so far is the result, not truncated: for streams that never end by
 * themselves, such as an SSE stream whose reader has what it came for.
 */
export function readCapped(
  stream: Readable,
  maxBytes: number,
  stopWhen?: (chunk: Buffer) => boolean,
): Promise<CappedBody> {
  return new Promise<CappedBody>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    if (stream.errored) {
      // Already failed before we got here: the same answer the iterator would give.
      settled = true;
      reject(stream.errored);
      return;
    }
    if (stream.readableEnded) {
      settled = true;
      resolve({ body: Buffer.alloc(0), truncated: false });
      return;
    }
    if (stream.destroyed) {
      settled = true;
      reject(prematureClose());
      return;
    }
    stream.on("data", (chunk: unknown) => {
      if (settled) return;
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      if (total + buf.length > maxBytes) {
        chunks.push(buf.subarray(0, maxBytes - total));
        total = maxBytes;
        settled = true;
        // Stop here: destroying the stream (through pipeline, the source too)
        // means the rest is never read or decompressed.
        discardBody(stream);
        resolve({ body: Buffer.concat(chunks, total), truncated: true });
        return;
      }
      chunks.push(buf);
      total += buf.length;
      if (stopWhen?.(buf)) {
        settled = true;
        discardBody(stream);
        resolve({ body: Buffer.concat(chunks, total), truncated: false });
      }
    });
    stream.once("end", () => {
      if (settled) return;
      settled = true;
      resolve({ body: Buffer.concat(chunks, total), truncated: false });
    });
    stream.on("error", (err: unknown) => {
      if (settled) return;
      settled = true;
      if (!stream.destroyed && !stream.readableEnded) discardBody(stream);
      reject(err);
    });
    stream.once("close", () => {
      if (settled) return;
      settled = true;
      reject(stream.errored ?? prematureClose());
    });
  });
}

// What Node's stream iterator rejects with when a stream closes before its end.
function prematureClose(): Error {
  const err: NodeJS.ErrnoException = new Error("Premature close");
  err.code = "ERR_STREAM_PREMATURE_CLOSE";
  return err;
}

/**
 * Throws a body away and frees its socket. undici's body emits an abort error
 * when destroyed early; nobody is listening any more, so it is swallowed here
 * instead of surfacing as an unhandled error.
 */
export function discardBody(stream: Readable): void {
  stream.on("error", () => {});
  stream.destroy();
}
