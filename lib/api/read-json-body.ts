/**
 * Reads a request body as JSON without ever holding more than a cap: Content-Length over
 * the cap is refused before reading, and the stream is cancelled as soon as the bytes read
 * pass it (a chunked or lying client). The bytes must be UTF-8 and the value nested at
 * most MAX_JSON_DEPTH deep. Every refusal is an DomainError (400 / 413).
 */
import { DomainError } from "@/lib/errors";
import { MAX_JSON_DEPTH } from "./body-limits";
import { jsonDepthExceeds } from "./json-depth";

/** The 413 of a body past `maxBytes`. */
export const tooLarge = (maxBytes: number) =>
  new DomainError("payload_too_large", `request body is larger than ${maxBytes} bytes`, { max_bytes: maxBytes });

/** Refuses (413) a body whose Content-Length already says it is over the cap, before reading any of it. */
export function refuseDeclaredOverCap(contentLength: string | null | undefined, maxBytes: number): void {
  if (contentLength != null && /^\d+$/.test(contentLength.trim()) && Number(contentLength) > maxBytes)
    throw tooLarge(maxBytes);
}

/** The body's bytes, at most `maxBytes` of them; 413 past that. */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Uint8Array> {
  refuseDeclaredOverCap(req.headers.get("content-length"), maxBytes);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        // The client hung up (or the connection broke) before the body ended.
        throw new DomainError("bad_request", `the request body could not be read: ${(error as Error).message}`);
      });
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        // Stop the upload here: nothing past the cap is read or kept.
        await reader.cancel().catch(() => undefined);
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The body as text: UTF-8, strictly (a byte sequence that is not UTF-8 is 400, not U+FFFD). */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  return utf8Text(await readBodyBytes(req, maxBytes));
}

function utf8Text(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DomainError("bad_json", "request body is not valid UTF-8");
  }
}

/** The body parsed as JSON; 400 `bad_json` when empty, not JSON or nested too deep; 413 over the cap. */
export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  return parseJsonBytes(await readBodyBytes(req, maxBytes));
}

/** A body's bytes parsed as JSON: 400 `bad_json` when not UTF-8, empty, not JSON or nested too deep. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  const text = utf8Text(bytes);
  if (text.trim() === "") throw new DomainError("bad_json", "request body must be JSON");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DomainError("bad_json", `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) {
    throw new DomainError("bad_json", `request body is nested more than ${MAX_JSON_DEPTH} levels deep`, {
      max_depth: MAX_JSON_DEPTH,
    });
  }
  return value;
}
