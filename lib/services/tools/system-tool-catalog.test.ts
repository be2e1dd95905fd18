import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { DomainError } from "@/lib/errors";
import { SYSTEM_TOOL_NAMES } from "@/lib/tools/types";
import { putAgent } from "@/lib/services/agents/agents";
import { listCatalogRows, toolExposureByAgent } from "./tool-page";
import { getToolDetail, listCatalog, putTool, removeTool, summarizeSystemTool } from "./tools";
import { operatorPrincipal } from "@/lib/access/principal";

const OPERATOR = operatorPrincipal("api");

const demoModel = { provider: "demo", model: "demo" };

describe("system tools in the catalog", () => {
  it("are listed as read-only code tools with when an agent is offered each", async () => {
    const db = openDb(":memory:");
    const listed = (await listCatalog(db)).filter((t) =>
      (SYSTEM_TOOL_NAMES as readonly string[]).includes(t.name),
    ) as ReturnType<typeof summarizeSystemTool>[];
    expect(listed.map((t) => t.name)).toEqual([...SYSTEM_TOOL_NAMES]);
    for (const t of listed)
      expect(t).toMatchObject({
        kind: "code",
        editable: false,
        status: "ok",
        system: true,
        offered_when: expect.stringMatching(/^when /),
      });
    expect(listed.find((t) => t.name === "load_skill")?.offered_when).toContain("skills");
    expect(listed.find((t) => t.name === "tool_search")?.offered_when).toContain("deferred");
    expect(listed.find((t) => t.name === "remember")?.offered_when).toContain("memory");
    expect(listed.find((t) => t.name === "spawn_subagents")?.offered_when).toContain("subagents");
    expect(
      (await listCatalogRows(db))
        .filter((r) => r.offered_when)
        .map((r) => r.name)
        .sort(),
    ).toEqual([...SYSTEM_TOOL_NAMES].sort());
  });

  it("answer GET with their schema and refuse writes, deletes and collisions", async () => {
    const db = openDb(":memory:");
    const detail = (await getToolDetail(db, "spawn_subagent")) as Record<string, unknown>;
    expect(detail).toMatchObject({
      name: "spawn_subagent",
      kind: "code",
      side_effect: true,
      parameters: { type: "object", required: ["agent", "message"] },
    });
    expect(JSON.stringify(detail.parameters)).not.toContain('"enum":[]');
    await expect(removeTool(db, OPERATOR, "remember")).rejects.toThrow(DomainError);
    try {
      await removeTool(db, OPERATOR, "remember");
    } catch (e) {
      expect((e as DomainError).code).toBe("conflict");
      expect((e as DomainError).message).toContain("system tool");
    }
    await expect(
      putTool(db, OPERATOR, "load_skill", { description: "x", request: { method: "GET", url: "https://a.example" } }),
    ).rejects.toThrow("'load_skill' is already a code tool");
  });

  it("say per agent whether a turn is offered one, and why", async () => {
    const db = openDb(":memory:");
    await putAgent(db, OPERATOR, "with_skills", { model: demoModel, skills: ["greet"] });
    await putAgent(db, OPERATOR, "denies", { model: demoModel, skills: ["greet"], tools_deny: ["load_skill"] });
    await putAgent(db, OPERATOR, "plain", { model: demoModel });
    const rows = new Map((await toolExposureByAgent(db, "load_skill")).map((r) => [r.agent_id, r]));
    expect(rows.get("with_skills")).toMatchObject({ status: "offered", reason: expect.stringContaining("skills") });
    expect(rows.get("denies")).toMatchObject({ status: "denied" });
    expect(rows.get("plain")).toMatchObject({
      status: "not_allowed",
      reason: expect.stringContaining("not configured"),
    });
  });
});
