import { describe, expect, it } from "vitest";
import { TOOL_NAME_PATTERN } from "@/lib/tools";
import { normalizeToolName, normalizeToolNames } from "./normalize-tool-names";

describe("normalizeToolName", () => {
  it.each([
    ["get-sum", "get_sum"],
    ["echo", "echo"],
    ["Search.Files", "search_files"],
    ["2fa", "mcp_2fa"],
    ["_private", "mcp__private"],
    ["émoji✓", "mcp__moji_"],
    ["", "mcp_tool"],
  ])("%j -> %j", (input, expected) => {
    expect(normalizeToolName(input)).toBe(expected);
  });

  it("always matches the name rule and the length limit", () => {
    for (const raw of ["a".repeat(200), "-".repeat(70), "ÄÖÜ", "x y z", "__proto__", "constructor"]) {
      const name = normalizeToolName(raw);
      expect(name).toMatch(TOOL_NAME_PATTERN);
      expect(name.length).toBeLessThanOrEqual(64);
    }
  });
});

describe("normalizeToolNames", () => {
  it("keeps the plain name for the tool already named that way and suffixes the others, whatever the order", () => {
    const a = normalizeToolNames(["get-sum", "get_sum", "Get-Sum"]);
    const b = normalizeToolNames(["get_sum", "Get-Sum", "get-sum"]);
    expect(a).toEqual(b);
    const byMcp = Object.fromEntries(a.map((n) => [n.mcpName, n.name]));
    expect(byMcp).toEqual({ get_sum: "get_sum", "Get-Sum": "get_sum_2", "get-sum": "get_sum_3" });
    expect(a.find((n) => n.mcpName === "get-sum")?.collision).toContain(
      "'get-sum' and 'get_sum' both normalize to 'get_sum'",
    );
    expect(a.find((n) => n.mcpName === "get_sum")?.collision).toBeUndefined();
  });

  it("never hands out a suffixed name that another tool normalizes to", () => {
    const names = normalizeToolNames(["a-b", "a.b", "a_b_2"]);
    const taken = names.map((n) => n.name);
    expect(new Set(taken).size).toBe(3);
    expect(names.find((n) => n.mcpName === "a_b_2")?.name).toBe("a_b_2");
  });

  it("lists a duplicated server name once", () => {
    expect(normalizeToolNames(["echo", "echo"])).toEqual([{ mcpName: "echo", name: "echo" }]);
  });

  it("keeps suffixed long names within 64 characters", () => {
    const long = "x".repeat(70);
    const names = normalizeToolNames([long, `${long}-`]);
    for (const n of names) expect(n.name.length).toBeLessThanOrEqual(64);
    expect(new Set(names.map((n) => n.name)).size).toBe(2);
  });
});
