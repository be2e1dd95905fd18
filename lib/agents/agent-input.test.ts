import { describe, expect, it } from "vitest";
import { agentInput, LIMIT_MAXIMA } from "./agent-input";

const base = { model: { provider: "demo", model: "demo" } };
const problems = (limits: Record<string, unknown>) => {
  const parsed = agentInput.safeParse({ ...base, limits });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("agent limits", () => {
  it.each(Object.entries(LIMIT_MAXIMA))("%s is refused above its maximum, naming the field and the maximum", (name, max) => {
    expect(problems({ [name]: max })).toEqual([]);
    expect(problems({ [name]: max + 1 })).toEqual([`limits.${name}: ${name} must be at most ${max}`]);
  });

  it("caps the whole set sanely", () => {
    expect(LIMIT_MAXIMA).toEqual({ tool_concurrency: 64, max_tool_calls: 1000, turn_timeout: 3600, tool_timeout: 600, max_subagent_turns: 200 });
  });

  it("max_subagent_turns: 0 (no child turn) is allowed; negative, fractional and non-numbers are not", () => {
    expect(problems({ max_subagent_turns: 0 })).toEqual([]);
    for (const bad of [-1, 1.5, "5", null, Number.POSITIVE_INFINITY]) expect(problems({ max_subagent_turns: bad })).toHaveLength(1);
  });

  it("refuses an unknown limit by name", () => {
    expect(problems({ max_children: 3 })[0]).toMatch(/max_children/);
  });
});
