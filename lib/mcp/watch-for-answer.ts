/**
 * Knowing, while an SSE response is still arriving, that the answer is in:
 * a stream may stay open after it (a resumed GET stream always does), so the
 * read must stop at the answer rather than wait for an end that never comes.
 */
import { isResponseTo } from "./read-rpc-response";
import { SseParser } from "./sse-events";

/**
 * Returns a `stopReading` predicate for one send: true once a complete SSE
 * event holding the response to `id` has arrived. A response that is not
 * `text/event-stream` is read to its end (always false). Linear in the body:
 * each chunk is decoded (UTF-8, split code points kept) and scanned once; the
 * unfinished line is kept as pieces and joined once, when it ends (a server
 * dripping one endless line must not make every chunk rescan it). Never throws.
 */
export function watchForAnswer(
  id: string | number,
): (chunk: Buffer, headers: Readonly<Record<string, string>>) => boolean {
  const decoder = new TextDecoder();
  const parser = new SseParser();
  // The current line so far, in pieces; `afterCr`: the last line ended with a CR, so an LF next is its CRLF.
  let pieces: string[] = [];
  let afterCr = false;
  let checked = 0;
  let found = false;
  return (chunk, headers) => {
    if (found) return true;
    if (!(headers["content-type"] ?? "").toLowerCase().includes("text/event-stream")) return false;
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    if (afterCr && text !== "") {
      afterCr = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    for (let i = start; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      pieces.push(text.slice(start, i));
      parser.line(pieces.length === 1 ? (pieces[0] as string) : pieces.join(""));
      pieces = [];
      if (c === 13) {
        if (i === text.length - 1) afterCr = true;
        else if (text.charCodeAt(i + 1) === 10) i += 1;
      }
      start = i + 1;
    }
    if (start < text.length) pieces.push(text.slice(start));
    const events = parser.stream.events;
    for (; checked < events.length; checked += 1) {
      if (holdsAnswer((events[checked] as { data: string }).data, id)) found = true;
    }
    return found;
  };
}

function holdsAnswer(data: string, id: string | number): boolean {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return false;
  }
  return (Array.isArray(value) ? value : [value]).some((m) => isResponseTo(m, id));
}
