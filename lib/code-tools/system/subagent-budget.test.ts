import { describe, expect, it } from "vitest";
import type { ResumeState } from "@/lib/engine/ports";
import { SubagentBudget, subagentTurnsStarted } from "./subagent-budget";

const resume = (
  calls: Array<{ id: string; name: string; args: unknown }>,
  completed: Array<{ callId: string; ok: boolean }>,
): ResumeState =>
  ({
    checkpoint: {
      turnId: "t",
      step: 0,
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "",
          toolCalls: calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.stringify(c.args) })),
        },
      ],
      completedCalls: [],
      batchOpen: true,
    },
    completed: completed.map((c, position) => ({
      identity: `i${position}`,
      step: 0,
      position,
      callId: c.callId,
      tool: "spawn_subagents",
      ok: c.ok,
      content: "",
    })),
    inFlight: [],
  }) as unknown as ResumeState;

describe("a resumed turn's subagent count", () => {
  it("counts the children of spawn calls that completed ok or were still open, not refused ones or other tools", () => {
    const state = resume(
      [
        { id: "a", name: "spawn_subagents", args: { tasks: [{}, {}, {}] } },
        { id: "b", name: "spawn_subagent", args: { agent: "x", message: "m" } },
        { id: "c", name: "spawn_subagents", args: { tasks: [{}, {}] } },
        { id: "d", name: "spawn_subagents", args: { tasks: [{}, {}, {}, {}] } },
        { id: "e", name: "lookup", args: {} },
      ],
      [
        { callId: "a", ok: true },
        { callId: "c", ok: false },
      ],
    );
    // a: 3 (ok), b: 1 (open), c: refused, d: 4 (open), e: not a spawn.
    expect(subagentTurnsStarted(state)).toBe(8);
  });

  it("goes on from there: a resume cannot start the cap again", () => {
    const budget = new SubagentBudget(10, undefined, 8);
    expect(budget.take(3)).toMatch(/at most 10 child turn\(s\).*8 already started, 3 more asked for/);
    expect(budget.take(2)).toBeUndefined();
    expect(budget.take(1)).toMatch(/10 already started/);
  });
});
