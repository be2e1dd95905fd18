/**
 * A request body read from Node's own request (a route served before Next.js routes it,
 * node-turn-route.ts), with the caps of read-json-body.ts: a Content-Length over the cap is
 * refused before reading, and reading stops at the first byte past it (413). The bytes go to
 * parseJsonBytes, as the route handlers' do.
 */
import type { IncomingMessage } from "node:http";
import { DomainError } from "@/lib/errors";
import { refuseDeclaredOverCap, tooLarge } from "./read-json-body";

/** The body's bytes, at most `maxBytes` of them; 413 past that, 400 when the client hangs up first. */
export async function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  refuseDeclaredOverCap(req.headers["content-length"], maxBytes);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (outcome: () => void) => {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total <= maxBytes) return void chunks.push(chunk);
      // Nothing past the cap is read or kept; the answer closes the connection (node-turn-route.ts).
      req.pause();
      settle(() => reject(tooLarge(maxBytes)));
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks, total)));
    const hungUp = (why: string) =>
      settle(() => reject(new DomainError("bad_request", `the request body could not be read: ${why}`)));
    const onError = (error: Error) => hungUp(error.message);
    const onClose = () => hungUp("the connection closed before the body ended");
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}
