/**
 * Server-sent events: one `event:`/`data:` pair per engine event. The stream
 * closes after a terminal event; a client that goes away does not stop the turn.
 */
const TERMINAL = new Set(["turn_completed", "turn_halted", "turn_waiting", "turn_failed"]);

export interface SseChannel {
  send(event: string, data: unknown): void;
  close(): void;
  response: Response;
}

/** A stream whose `send` never throws (writes after the client left are dropped). */
export function sseChannel(headers: Record<string, string> = {}): SseChannel {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      closed = true;
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
  return {
    send(event, data) {
      write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        controller?.close();
      } catch {
        // already closed by the client
      }
    },
    response: new Response(stream, {
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

export const isTerminalEvent = (type: string) => TERMINAL.has(type);
