/**
 * Server-sent events. `sseStream` is the general writer: bare `data:` lines (OpenAI Chat
 * Completions, ending with `data: [DONE]`) or `event:`/`data:` pairs (engine events, OpenAI
 * Responses). Writes after the client left are dropped: the turn goes on and is recorded.
 * The response is made last so its headers can carry ids known only once the turn started.
 */
export interface SseStream {
  /** `data: <json>` (or the text as is). */
  data(payload: unknown): void;
  /** `event: <name>` + `data: <json>` (after `id: <id>` when given: what a client resumes from with Last-Event-ID). */
  event(name: string, payload: unknown, id?: string | number): void;
  /** A comment line (`: <text>`): keeps an idle connection open through proxies. */
  comment(text: string): void;
  /** Aborted when the client goes away (the stream is cancelled). */
  readonly signal: AbortSignal;
  close(): void;
  response(headers?: Record<string, string>): Response;
}

export function sseStream(): SseStream {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  const gone = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      closed = true;
      gone.abort();
    },
  });
  const write = (text: string) => {
    if (closed || !controller) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      closed = true;
    }
  };
  const encode = (payload: unknown) => (typeof payload === "string" ? payload : JSON.stringify(payload));
  return {
    data: (payload) => write(`data: ${encode(payload)}\n\n`),
    event: (name, payload, id) =>
      write(`${id === undefined ? "" : `id: ${id}\n`}event: ${name}\ndata: ${encode(payload)}\n\n`),
    comment: (text) => write(`: ${text}\n\n`),
    signal: gone.signal,
    close() {
      if (closed) return;
      closed = true;
      try {
        controller?.close();
      } catch {
        // the client already went away
      }
    },
    response: (headers = {}) =>
      new Response(body, {
        headers: {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache, no-transform",
          connection: "keep-alive",
          "x-accel-buffering": "no",
          ...headers,
        },
      }),
  };
}

export interface SseChannel {
  send(event: string, data: unknown): void;
  close(): void;
  response: Response;
}

/** One `event:`/`data:` pair per engine event; the caller closes it once the turn settles (sse-turn.ts). */
export function sseChannel(headers: Record<string, string> = {}): SseChannel {
  const stream = sseStream();
  return {
    send: (event, data) => stream.event(event, data),
    close: () => stream.close(),
    response: stream.response(headers),
  };
}
