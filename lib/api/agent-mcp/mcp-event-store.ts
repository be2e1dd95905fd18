/**
 * The SSE events of one MCP session, kept so a client that lost a stream can resume it with
 * Last-Event-ID (Streamable HTTP resumability). Bounded: the newest MAX_EVENTS of the
 * session; an older id resumes nothing. In process memory: a stream is resumed by the
 * process that served it (docs/decisions.md, MCP server).
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export const MAX_EVENTS = 500;

interface Stored {
  id: string;
  streamId: string;
  seq: number;
  message: JSONRPCMessage;
}

/** Event ids are `<streamId>.<seq>`: the stream is read back from the id alone. */
export class McpEventStore implements EventStore {
  private seq = 0;
  private readonly events: Stored[] = [];

  constructor(private readonly max = MAX_EVENTS) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.seq += 1;
    const id = `${streamId}.${this.seq}`;
    this.events.push({ id, streamId, seq: this.seq, message });
    if (this.events.length > this.max) this.events.splice(0, this.events.length - this.max);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.parse(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.parse(lastEventId);
    if (!last) return "";
    for (const event of this.events) {
      if (event.streamId !== last.streamId || event.seq <= last.seq) continue;
      // The priming event (an empty message) carries no data to replay.
      if (Object.keys(event.message).length === 0) continue;
      await send(event.id, event.message);
    }
    return last.streamId;
  }

  private parse(eventId: string): { streamId: string; seq: number } | undefined {
    const dot = eventId.lastIndexOf(".");
    if (dot <= 0) return undefined;
    const seq = Number(eventId.slice(dot + 1));
    if (!Number.isSafeInteger(seq) || seq <= 0) return undefined;
    return { streamId: eventId.slice(0, dot), seq };
  }
}
