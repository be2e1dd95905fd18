import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { McpEventStore } from "./mcp-event-store";

const msg = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });

async function replay(store: McpEventStore, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(after, { send: async (id, m) => void sent.push([id, m]) });
  return { stream, sent };
}

describe("McpEventStore", () => {
  it("replays the events of the same stream after the given id, not other streams'", async () => {
    const store = new McpEventStore();
    const first = await store.storeEvent("s1", {} as JSONRPCMessage); // priming
    await store.storeEvent("s2", msg(9));
    const second = await store.storeEvent("s1", msg(1));
    await store.storeEvent("s1", msg(2));
    expect(await store.getStreamIdForEventId(second)).toBe("s1");
    const fromPriming = await replay(store, first);
    expect(fromPriming.stream).toBe("s1");
    expect(fromPriming.sent.map(([, m]) => (m as { id: number }).id)).toEqual([1, 2]);
    expect((await replay(store, second)).sent.map(([, m]) => (m as { id: number }).id)).toEqual([2]);
  });

  it("keeps only the newest events, and answers nothing for a malformed id", async () => {
    const store = new McpEventStore(2);
    const old = await store.storeEvent("s", msg(1));
    await store.storeEvent("s", msg(2));
    await store.storeEvent("s", msg(3));
    expect((await replay(store, old)).sent.map(([, m]) => (m as { id: number }).id)).toEqual([2, 3]);
    for (const bad of ["", "nodot", "s.x", "s.-1", ".3"]) {
      expect(await store.getStreamIdForEventId(bad), bad).toBeUndefined();
      expect((await replay(store, bad)).sent).toEqual([]);
    }
  });
});
