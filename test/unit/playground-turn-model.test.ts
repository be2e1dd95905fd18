import { describe, expect, it } from "vitest";
import { applyEvent, type PlaygroundTurn } from "@/components/playground/turn-model";

const fresh = (): PlaygroundTurn => ({
  key: "t1",
  message: "search_catalog query=lamp",
  status: "running",
  parts: [],
  warnings: [],
});
const play = (events: [string, Record<string, unknown>][], turn = fresh()) =>
  events.reduce((t, [e, d]) => applyEvent(t, e, d), turn);

describe("the playground's turn model across an approval", () => {
  const waiting: [string, Record<string, unknown>][] = [
    ["turn_started", { seq: 1, turn_id: "turn_1" }],
    ["warning", { seq: 2, message: "approvals apply to this turn" }],
    ["text_delta", { seq: 3, text: "Calling search_catalog…" }],
    [
      "approval_requested",
      { seq: 4, approval_id: "apr_1", call_id: "c1", tool: "search_catalog", arguments: { query: "lamp" } },
    ],
    ["turn_waiting", { seq: 5 }],
  ];

  it("waits with a pending approval and remembers the last seq", () => {
    const turn = play(waiting);
    expect(turn).toMatchObject({ turnId: "turn_1", status: "waiting", lastSeq: 5 });
    expect(turn.parts.map((p) => p.type)).toEqual(["text", "approval"]);
  });

  it("applies the resumed run: decision, call, answer; replayed calls and repeated warnings are not doubled", () => {
    const turn = play(
      [
        ["turn_resumed", { seq: 6, turn_id: "turn_1", step: 0 }],
        ["warning", { seq: 7, message: "approvals apply to this turn" }],
        ["approval_resolved", { seq: 8, approval_id: "apr_1", call_id: "c1", decision: "rejected" }],
        ["tool_call", { seq: 9, call_id: "c1", tool: "search_catalog", arguments: { query: "lamp" } }],
        ["tool_call", { seq: 10, call_id: "c1", tool: "search_catalog", arguments: { query: "lamp" }, replayed: true }],
        [
          "tool_result",
          { seq: 11, call_id: "c1", tool: "search_catalog", ok: false, error: "rejected by operator", duration_ms: 0 },
        ],
        ["text_delta", { seq: 12, text: "It was rejected." }],
        ["turn_completed", { seq: 13, content: "It was rejected." }],
      ],
      play(waiting),
    );
    expect(turn).toMatchObject({ status: "completed", lastSeq: 13, warnings: ["approvals apply to this turn"] });
    expect(turn.parts).toEqual([
      { type: "text", text: "Calling search_catalog…" },
      {
        type: "approval",
        approval_id: "apr_1",
        call_id: "c1",
        tool: "search_catalog",
        arguments: { query: "lamp" },
        decided: "rejected",
      },
      {
        type: "call",
        call_id: "c1",
        tool: "search_catalog",
        arguments: { query: "lamp" },
        result: { ok: false, error: "rejected by operator", duration_ms: 0, halted: false },
      },
      { type: "text", text: "It was rejected." },
    ]);
  });

  it("marks an expired approval as a rejection nobody decided, and goes back to running on resume", () => {
    const resumed = play([["turn_resumed", { seq: 6, turn_id: "turn_1", step: 0 }]], play(waiting));
    expect(resumed.status).toBe("running");
    const expired = play(
      [["approval_resolved", { seq: 7, approval_id: "apr_1", decision: "rejected", expired: true }]],
      resumed,
    );
    expect(expired.parts[1]).toMatchObject({ decided: "rejected", expired: true });
  });
});
