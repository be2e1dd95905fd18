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
 * each chunk is decoded (UTF-8, split code points kept) and only whole lines
 * are parsed. Never throws.
 */
export function watchForAnswer(
  id: string | number,
): (chunk: Buffer, headers: Readonly<Record<string, string>>) => boolean {
  const decoder = new TextDecoder();
  const parser = new SseParser();
  let pending = "";
  let checked = 0;
  let found = false;
  return (chunk, headers) => {
    if (found) return true;
    if (!(headers["content-type"] ?? "").toLowerCase().includes("text/event-stream")) return false;
    pending += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let i = 0; i < pending.length; i += 1) {
      const c = pending.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (c === 13 && i === pending.length - 1) break;
      parser.line(pending.slice(start, i));
      if (c === 13 && pending.charCodeAt(i + 1) === 10) i += 1;
      start = i + 1;
    }
    pending = pending.slice(start);
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
