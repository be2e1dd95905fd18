/**
 * A turn answered as a server-sent event stream: each event once it is recorded, the stream
 * closed when the run settles (after its terminal event, or without one when the run could
 * not be recorded, or when a resumed turn had already ended). Shared by the routes that
 * stream a turn: POST /v1/sessions/:id/turns and /v1/turns/:id/resume for a client that
 * accepts text/event-stream, and the Studio playground's turn route. `start` starts (or
 * resumes) the run with the listener it is given; `data` says what of each event the client
 * is sent besides its type.
 */
import type { EventListener } from "@/lib/services/turns/turn-recorder";
import { sseChannel } from "./sse";

type RecordedEvent = Parameters<EventListener>[0];

export async function sseTurn(
  start: (listener: EventListener) => Promise<{ done: Promise<unknown> }>,
  data: (event: RecordedEvent) => Record<string, unknown>,
): Promise<Response> {
  const channel = sseChannel();
  const turn = await start((event) => channel.send(event.type, data(event)));
  // The terminal event reaches the listener before the run settles.
  turn.done.finally(() => channel.close()).catch(() => undefined);
  return channel.response;
}
