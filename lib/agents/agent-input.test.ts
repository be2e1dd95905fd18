import { describe, expect, it } from "vitest";
import { agentInput, LIMIT_MAXIMA } from "./agent-input";

const base = { model: { provider: "demo", model: "demo" } };
const problems = (limits: Record<string, unknown>) => {
  const parsed = agentInput.safeParse({ ...base, limits });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("agent limits", () => {
  it.each(Object.entries(LIMIT_MAXIMA))(
    "%s is refused above its maximum, naming the field and the maximum",
    (name, max) => {
      expect(problems({ [name]: max })).toEqual([]);
      expect(problems({ [name]: max + 1 })).toEqual([`limits.${name}: ${name} must be at most ${max}`]);
    },
  );

  it("caps the whole set sanely", () => {
    expect(LIMIT_MAXIMA).toEqual({
      tool_concurrency: 64,
      max_tool_calls: 1000,
      turn_timeout: 3600,
      tool_timeout: 600,
      max_subagent_turns: 200,
    });
  });

  it("max_subagent_turns: 0 (no child turn) is allowed; negative, fractional and non-numbers are not", () => {
    expect(problems({ max_subagent_turns: 0 })).toEqual([]);
    for (const bad of [-1, 1.5, "5", null, Number.POSITIVE_INFINITY])
      expect(problems({ max_subagent_turns: bad })).toHaveLength(1);
  });

  it("refuses an unknown limit by name", () => {
    expect(problems({ max_children: 3 })[0]).toMatch(/max_children/);
  });
});
function problem(base_url: unknown): string | null {
  const r = agentInput.safeParse({ model: { provider: "openai-compatible", model: "m", base_url } });
  return r.success ? null : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
}

describe("agent model.base_url", () => {
  it("saves http(s) endpoints, private and loopback ones included (the call decides those)", () => {
    for (const url of [
      "https://api.openai.com/v1",
      "http://127.0.0.1:11434/v1",
      "http://localhost:8000/v1",
      "https://[::1]:8443/v1",
      "http://10.0.0.5/v1",
    ]) {
      expect(problem(url), url).toBeNull();
    }
  });

  it.each([
    ["http://127.0.0.1\\v1", "(backslash): URL contains a backslash"],
    ["http://127.0.0.1/v1\t", "(control-chars): URL contains whitespace or control characters"],
    ["http://127.0.0.1/\u0000v1", "(control-chars)"],
    ["https://key:x@api.example.com/v1", "(userinfo): URL contains credentials (user@host)"],
    ["https://@api.example.com/v1", "(userinfo)"],
    ["http://127.0.0.1:99999/v1", '(bad-port): port "99999" is not a valid port (1-65535)'],
    ["http://127.0.0.1:0/v1", "(bad-port): port 0 is not a valid port"],
    ["http://[fe80::1%25eth0]:11434/v1", "(zone-id)"],
    [`https://api.example.com/${"v".repeat(9000)}`, "(too-long)"],
    ["http://metadata.google.internal/v1", "(metadata-host)"],
  ])("refuses %j with the guard's reason", (url, reason) => {
    expect(problem(url)).toContain(`model.base_url: base_url is refused by the egress guard ${reason}`);
  });

  it("refuses other schemes and non-URLs", () => {
    for (const url of ["ftp://127.0.0.1/v1", "javascript:alert(1)", "127.0.0.1:11434", "", 42]) {
      expect(problem(url), String(url)).toMatch(/model\.base_url: /);
    }
  });
});
