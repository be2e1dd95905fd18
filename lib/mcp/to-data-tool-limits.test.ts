import { describe, expect, it } from "vitest";
import { MCP_IMPORT_LIMITS } from "./import-limits";
import { toDataTools } from "./to-data-tool";

const OPTIONS = { instance: "big", url: "http://127.0.0.1:9/mcp", headers: {}, secretHeaders: [] };

describe("toDataTools: per-tool bounds", () => {
  it("turns a description over 4 KiB (UTF-8 bytes) into an errors entry, the other tools unaffected", () => {
    const r = toDataTools(
      [
        { name: "ok", description: "é".repeat(MCP_IMPORT_LIMITS.maxDescriptionBytes / 2) },
        { name: "wordy", description: "é".repeat(MCP_IMPORT_LIMITS.maxDescriptionBytes / 2 + 1) },
      ],
      OPTIONS,
    );
    expect(r.tools.map((t) => t.mcpName)).toEqual(["ok"]);
    expect(r.errors).toEqual([
      { tool: "wordy", mcp_tool: "wordy", error: "description is 4098 bytes, over the limit of 4 KiB per MCP tool" },
    ]);
  });

  it("turns an inputSchema over 64 KiB serialized into an errors entry before validating it", () => {
    const schema = {
      type: "object",
      properties: { q: { type: "string", description: "x".repeat(MCP_IMPORT_LIMITS.maxSchemaBytes) } },
    };
    const r = toDataTools([{ name: "huge", inputSchema: schema }], OPTIONS);
    expect(r.tools).toEqual([]);
    expect(r.errors[0]?.error).toMatch(/^inputSchema is \d+ bytes serialized, over the limit of 64 KiB per MCP tool$/);
  });

  it("refuses a schema nested too deeply to serialize without throwing", () => {
    let deep: Record<string, unknown> = { type: "object" };
    for (let i = 0; i < 200_000; i += 1) deep = { type: "object", properties: { a: deep } };
    const r = toDataTools([{ name: "deep", inputSchema: deep }], OPTIONS);
    expect(r.tools).toEqual([]);
    expect(r.errors[0]?.error).toMatch(/inputSchema (cannot be serialized|is \d+ bytes serialized)/);
  });

  it("refuses, quickly, a schema whose patterns would expand to a huge regex program", () => {
    // Each property's pattern is under 1,000 characters; compiled by re2js, the lot took minutes.
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 40; i += 1) properties[`p${i}`] = { type: "string", pattern: "a{0,999}".repeat(100) };
    const started = performance.now();
    const r = toDataTools([{ name: "stall", inputSchema: { type: "object", properties } }], OPTIONS);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(r.tools).toEqual([]);
    expect(r.errors[0]?.error).toContain("regex instructions once their repeat counts are applied");
  });

  it("turns a name over 1 KiB into an errors entry, the name shown cut, instead of storing it as request.mcp_tool", () => {
    const long = "n".repeat(100_000);
    const r = toDataTools([{ name: long, description: "short" }, { name: "fine" }], OPTIONS);
    expect(r.tools.map((t) => t.mcpName)).toEqual(["fine"]);
    expect(r.errors).toEqual([
      {
        tool: "n".repeat(64),
        mcp_tool: `${"n".repeat(200)}…`,
        error: "name is 100000 bytes, over the limit of 1 KiB per MCP tool",
      },
    ]);
  });

  it("holds the patterns of the whole import to a budget: each tool under its own bound still adds up", () => {
    // Each schema's patterns are just under the per-schema budget (~4,000 instructions, tens of ms to
    // compile); a thousand such tools would block the event loop for half a minute.
    const schema = { type: "object", properties: { q: { type: "string", pattern: "a{0,999}".repeat(2) } } };
    const listed = Array.from({ length: 40 }, (_, i) => ({
      name: `t${String(i).padStart(2, "0")}`,
      inputSchema: schema,
    }));
    const r = toDataTools(listed, OPTIONS);
    const budget = MCP_IMPORT_LIMITS.maxImportPatternSize;
    expect(r.tools).toHaveLength(Math.floor(budget / 3996));
    expect(r.errors[0]).toEqual({
      tool: `t${Math.floor(budget / 3996)}`,
      mcp_tool: `t${Math.floor(budget / 3996)}`,
      error: `its patterns (about 3996 regex instructions once expanded) would take the import's patterns past ${budget}, the limit of one import`,
    });
  });
});
