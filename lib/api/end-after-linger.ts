/**
 * Lingering close, for an answer given before its request body was read to its end (a 413, a
 * refusal before reading) on a connection that then closes. Closing at once resets a socket
 * the client is still writing to: its upload fails (EPIPE, ECONNRESET) and it never reads the
 * answer it was sent. So the answer is written whole first, then what the client still sends
 * is read and thrown away, until its body ends or a bound is reached, and only then does the
 * response end (and the connection close, by its `connection: close`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** How long, and how many bytes, a refused upload is read and discarded before the connection closes. */
export const LINGER = { ms: 2_000, maxBytes: 4 * 1024 * 1024 };

/** Writes `text` (the whole answer: its headers are sent), then ends `res` once `req`'s body ends or a LINGER bound is hit. */
export function endAfterLinger(
  req: IncomingMessage,
  res: ServerResponse,
  text: string,
  limits: { ms: number; maxBytes: number } = LINGER,
): void {
  res.write(text);
  let discarded = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    req.off("data", onData).off("end", end).off("close", end).off("error", end);
    res.end();
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > limits.maxBytes) end();
  };
  const timer = setTimeout(end, limits.ms);
  timer.unref();
  req.on("data", onData).once("end", end).once("close", end).once("error", end);
  req.resume();
}
