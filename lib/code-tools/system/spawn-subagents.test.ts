import { describe, expect, it } from "vitest";
import { runLoadSkill } from "./load-skill";
import { runRemember } from "./remember";
import { SubagentBudget } from "./subagent-budget";
import { MAX_SUBAGENT_DEPTH, runSpawnSubagent, runSpawnSubagents, type SubagentDeps } from "./spawn-subagents";

const signal = new AbortController().signal;

function deps(overrides: Partial<SubagentDeps> = {}) {
  const ran: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const value: SubagentDeps & { ran: string[]; peak: () => number } = {
    allowed: new Set(["helper", "other"]),
    depth: 0,
    ran,
    peak: () => peak,
    async run(agent, message) {
      ran.push(`${agent}:${message}`);
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 10));
      inFlight -= 1;
      if (message === "fail") throw new Error("agent 'helper' not found");
      return { agent, status: "completed", content: `did ${message}` };
    },
    ...overrides,
  };
  return value;
}

const tasks = (n: number) => Array.from({ length: n }, (_, i) => ({ agent: "helper", message: `t${i}` }));

describe("spawn_subagents", () => {
  it("refuses more than 8 children with the exact message, running none", async () => {
    const d = deps();
    await expect(runSpawnSubagents({ tasks: tasks(9) }, d, signal)).rejects.toThrow(
      /^too many subagents in one call: 9 \(max 8\)$/,
    );
    expect(d.ran).toEqual([]);
  });

  it("runs up to 8 in parallel and returns every result in task order, a failure as a result", async () => {
    const d = deps();
    const list = tasks(8);
    list[3] = { agent: "helper", message: "fail" };
    const { value } = await runSpawnSubagents({ tasks: list }, d, signal);
    const results = (value as { results: { status: string; content: string; error?: string }[] }).results;
    expect(results.map((r) => r.status)).toEqual([
      "completed",
      "completed",
      "completed",
      "failed",
      "completed",
      "completed",
      "completed",
      "completed",
    ]);
    expect(results[3]?.error).toBe("agent 'helper' not found");
    expect(results[0]?.content).toBe("did t0");
    expect(d.peak()).toBe(8);
  });

  it("refuses an agent that is not a listed subagent and a call beyond the depth limit", async () => {
    await expect(runSpawnSubagents({ tasks: [{ agent: "stranger", message: "x" }] }, deps(), signal)).rejects.toThrow(
      "'stranger' is not one of this agent's subagents",
    );
    await expect(
      runSpawnSubagent({ agent: "helper", message: "x" }, deps({ depth: MAX_SUBAGENT_DEPTH }), signal),
    ).rejects.toThrow(`subagent depth limit reached (max ${MAX_SUBAGENT_DEPTH})`);
    const ok = await runSpawnSubagent(
      { agent: "helper", message: "x" },
      deps({ depth: MAX_SUBAGENT_DEPTH - 1 }),
      signal,
    );
    expect(ok.value).toMatchObject({ status: "completed", content: "did x" });
  });
});

describe("the subagent turn budget (limits.max_subagent_turns)", () => {
  it("refuses a call that would exceed it, running none of its children and taking nothing", async () => {
    const d = deps({ budget: new SubagentBudget(3) });
    await runSpawnSubagents({ tasks: tasks(2) }, d, signal);
    await expect(runSpawnSubagents({ tasks: tasks(2) }, d, signal)).rejects.toThrow(
      "subagent turn limit reached: this turn and its subagents may start at most 3 child turn(s) (limits.max_subagent_turns); 2 already started, 2 more asked for",
    );
    expect(d.ran).toHaveLength(2);
    await runSpawnSubagent({ agent: "helper", message: "last" }, d, signal);
    await expect(runSpawnSubagent({ agent: "helper", message: "one more" }, d, signal)).rejects.toThrow(
      /at most 3 child turn/,
    );
    expect(d.ran).toHaveLength(3);
  });

  it("a refusal for another reason takes nothing", async () => {
    const d = deps({ budget: new SubagentBudget(1) });
    await expect(runSpawnSubagent({ agent: "stranger", message: "x" }, d, signal)).rejects.toThrow(/not one of/);
    await expect(runSpawnSubagent({ agent: "helper", message: "x" }, d, signal)).resolves.toBeDefined();
  });

  it("counts descendants against every ancestor: a child cannot escape its parent's cap", () => {
    const root = new SubagentBudget(2);
    const child = new SubagentBudget(10, root);
    expect(child.take(1)).toBeUndefined();
    expect(root.take(1)).toBeUndefined();
    expect(child.take(1)).toMatch(
      /^subagent turn limit reached: an ancestor turn and its subagents may start at most 2/,
    );
    expect(new SubagentBudget(0).take(1)).toMatch(/at most 0 child turn/);
  });
});

describe("load_skill and remember", () => {
  it("load_skill returns a listed skill's body and refuses the others", async () => {
    const get = async (name: string) =>
      name === "refunds" ? { name, description: "d", body: "# Refunds\nAsk first." } : undefined;
    expect((await runLoadSkill({ name: "refunds" }, { allowed: new Set(["refunds", "ghost"]), get })).value).toEqual({
      skill: "refunds",
      instructions: "# Refunds\nAsk first.",
    });
    await expect(runLoadSkill({ name: "secret" }, { allowed: new Set(["refunds"]), get })).rejects.toThrow(
      "unknown skill: secret",
    );
    await expect(runLoadSkill({ name: "ghost" }, { allowed: new Set(["ghost"]), get })).rejects.toThrow(
      "skill 'ghost' is not defined",
    );
  });

  it("remember saves trimmed text and refuses empty or oversized text", async () => {
    const saved: string[] = [];
    expect((await runRemember({ text: "  likes tea " }, { save: async (t) => void saved.push(t) })).value).toEqual({
      remembered: "likes tea",
    });
    expect(saved).toEqual(["likes tea"]);
    await expect(runRemember({ text: " " }, { save: async () => undefined })).rejects.toThrow("text must not be empty");
    await expect(runRemember({ text: "x".repeat(2001) }, { save: async () => undefined })).rejects.toThrow(/too long/);
  });
});
