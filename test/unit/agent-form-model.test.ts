import { describe, expect, it } from "vitest";
import { fromAgentForm, toAgentForm } from "@/components/agents/agent-form-model";

describe("the agent form's limits", () => {
  const stored = {
    model: { provider: "demo", model: "demo" },
    limits: {
      tool_concurrency: 2,
      max_tool_calls: 50,
      turn_timeout: 300,
      tool_timeout: 60,
      max_subagent_turns: 7,
      future_limit: 3,
    },
  };

  it("renders max_subagent_turns and sends every limit back, one it does not render included", () => {
    const form = toAgentForm("a", stored);
    expect(form.max_subagent_turns).toBe("7");
    expect(fromAgentForm({ ...form, max_subagent_turns: "4" }, stored).limits).toEqual({
      ...stored.limits,
      max_subagent_turns: 4,
    });
  });

  it("a rendered limit left empty is left out (the default applies)", () => {
    const body = fromAgentForm({ ...toAgentForm("a", stored), turn_timeout: " " }, stored);
    expect(body.limits).not.toHaveProperty("turn_timeout");
    expect(body.limits).toMatchObject({ future_limit: 3 });
  });
});

describe("the agent form's strict mode", () => {
  it("keeps model.strict on a save, and turns it off when switched off", () => {
    const stored = { model: { provider: "openai", model: "gpt", api_key_secret: "k", strict: true } };
    const form = toAgentForm("a", stored);
    expect(form.strict).toBe("on");
    expect(fromAgentForm(form, stored).model).toStrictEqual(stored.model);
    expect(fromAgentForm({ ...form, strict: "off" }, stored).model).not.toHaveProperty("strict");
  });
});
