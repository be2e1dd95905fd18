import { describe, expect, it } from "vitest";
import type { EventListener } from "@/lib/services/turns/turn-recorder";
import { sseTurn } from "./sse-turn";

type Recorded = Parameters<EventListener>[0];

const started: Recorded = { type: "turn_started", turn_id: "turn_1", seq: 1, at: 10 };
const completed = { type: "turn_completed", content: "done", seq: 2, at: 11 } as unknown as Recorded;

/** A run that emits `events` to its listener, then settles with `outcome`. */
function fakeRun(events: Recorded[], outcome: Promise<unknown>) {
  return async (listener: EventListener) => {
    const done = (async () => {
      await Promise.resolve();
      for (const event of events) listener(event);
      return outcome;
    })();
    return { done };
  };
}

describe("sseTurn", () => {
  it("sends each event with what `data` keeps, and ends the stream when the run settles", async () => {
    const response = await sseTurn(
      fakeRun([started, completed], Promise.resolve({ status: "completed" })),
      ({ type: _type, seq: _seq, at: _at, ...data }) => data,
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await response.text()).toBe(
      'event: turn_started\ndata: {"turn_id":"turn_1"}\n\nevent: turn_completed\ndata: {"content":"done"}\n\n',
    );
  });

  it("ends the stream of a run that settles without a terminal event (its end could not be recorded)", async () => {
    const response = await sseTurn(
      fakeRun([started], Promise.resolve({ status: "failed" })),
      ({ type: _type, ...data }) => data,
    );
    expect(await response.text()).toBe('event: turn_started\ndata: {"turn_id":"turn_1","seq":1,"at":10}\n\n');
  });

  it("ends the stream of a run that rejects", async () => {
    const response = await sseTurn(fakeRun([], Promise.reject(new Error("gone"))), (event) => ({ ...event }));
    expect(await response.text()).toBe("");
  });
});
