/**
 * Server-Sent Events as MCP's Streamable HTTP uses them (the WHATWG event
 * stream format): each event's `data`, and what a client needs to resume a
 * stream that ended early, the last event `id` seen and the server's `retry`
 * interval. Hand-written, linear in the input, no regex over the body.
 */

/** One dispatched event: its data (multi-line data joined with "\n") and the last event id in force. */
export interface SseEvent {
  data: string;
  id: string | null;
}

/** Everything a stream said: its events in order, and the resumption state it left. */
export interface SseStream {
  /** Events with non-empty data (empty ones prime a stream or carry only an id). */
  events: SseEvent[];
  /** The last `id:` field seen (persisting across events, as the format says); null when none. */
  lastEventId: string | null;
  /** The last valid `retry:` field, in milliseconds; null when none. */
  retryMs: number | null;
}

/** Incremental parser state: feed complete lines, read the result. */
export class SseParser {
  readonly stream: SseStream = { events: [], lastEventId: null, retryMs: null };
  private data: string[] = [];
  private hasData = false;

  /** Processes one line (without its terminator); an empty line dispatches the pending event. */
  line(line: string): void {
    if (line === "") {
      this.dispatch();
      return;
    }
    const colon = line.indexOf(":");
    if (colon === 0) return; // a comment
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      this.data.push(value);
      this.hasData = true;
    } else if (field === "id") {
      // The format ignores an id holding NUL; an empty id resets it.
      if (!value.includes("\0")) this.stream.lastEventId = value === "" ? null : value;
    } else if (field === "retry") {
      if (value !== "" && isDigits(value)) this.stream.retryMs = Number(value);
    }
  }

  /** Ends the stream: a last event without its blank line is dispatched too (lenient, as servers cut streams). */
  end(): SseStream {
    this.dispatch();
    return this.stream;
  }

  private dispatch(): void {
    if (this.hasData) {
      const data = this.data.join("\n");
      if (data.trim() !== "") this.stream.events.push({ data, id: this.stream.lastEventId });
    }
    this.data = [];
    this.hasData = false;
  }
}

/** Parses a whole SSE body. Never throws. */
export function parseSse(text: string): SseStream {
  const parser = new SseParser();
  for (const line of splitLines(text)) parser.line(line);
  return parser.end();
}

/** Lines split on CRLF, CR or LF, without a regex over the body. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    lines.push(text.slice(start, i));
    if (c === 13 && text.charCodeAt(i + 1) === 10) i += 1;
    start = i + 1;
  }
  lines.push(text.slice(start));
  return lines;
}

function isDigits(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return value.length <= 12; // a retry beyond ~30 years is not an interval
}
