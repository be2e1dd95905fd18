import { describe, expect, it } from "vitest";
import { applyPolicy, type AgentPolicy } from "./policy";

const tools = [
  { name: "a", group: "g1" },
  { name: "b", group: "g1" },
  { name: "c", group: "g2" },
  { name: "d", group: null },
];
const policy = (p: Partial<AgentPolicy>): AgentPolicy => ({
  tools_allow: null,
  tools_deny: [],
  tools_allow_groups: null,
  tools_deferred: [],
  ...p,
});

describe("applyPolicy", () => {
  it("offers every tool when both allow lists are absent", () => {
    expect(applyPolicy(policy({}), tools).offered).toEqual(["a", "b", "c", "d"]);
  });

  it("offers nothing for an empty allowlist", () => {
    expect(applyPolicy(policy({ tools_allow: [] }), tools).offered).toEqual([]);
    expect(applyPolicy(policy({ tools_allow_groups: [] }), tools).offered).toEqual([]);
  });

  it("offers tools_allow ∪ the tools of tools_allow_groups", () => {
    const r = applyPolicy(policy({ tools_allow: ["d"], tools_allow_groups: ["g2"] }), tools);
    expect(r.offered).toEqual(["c", "d"]);
    expect(r.exposure.get("c")).toEqual({ status: "offered", reason: "allowed by group g2" });
    expect(r.exposure.get("d")).toEqual({ status: "offered", reason: "allowed by name" });
    expect(r.exposure.get("a")?.status).toBe("not_allowed");
  });

  it("lets deny win over an allow by name and by group", () => {
    const r = applyPolicy(policy({ tools_allow: ["a"], tools_allow_groups: ["g1"], tools_deny: ["a", "b"] }), tools);
    expect(r.offered).toEqual([]);
    expect(r.denied).toEqual(["a", "b"]);
  });

  it("holds deferred tools back from the direct offer, only within the allowed set", () => {
    const r = applyPolicy(policy({ tools_allow: ["a", "b"], tools_deferred: ["b", "c"] }), tools);
    expect(r.offered).toEqual(["a"]);
    expect(r.deferred).toEqual(["b"]);
    expect(r.exposure.get("c")?.status).toBe("not_allowed");
  });

  it("never resolves a name through the prototype chain", () => {
    const r = applyPolicy(policy({ tools_allow: ["constructor"] }), [{ name: "__proto__", group: null }]);
    expect(r.offered).toEqual([]);
  });
});
