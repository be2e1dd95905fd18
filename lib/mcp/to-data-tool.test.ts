import { describe, expect, it } from "vitest";
import { toDataTools, type McpToolInfo } from "./to-data-tool";

const OPTIONS = {
  instance: "everything",
  url: "http://127.0.0.1:9/mcp",
  headers: { Authorization: "Bearer {{secret.mcp_token}}", "X-Team": "blue" },
  secretHeaders: ["Authorization"],
};

const schema = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});

describe("toDataTools", () => {
  it("turns an MCP tool into a POST data tool with protocol mcp, the server's name and the group", () => {
    const listed: McpToolInfo[] = [
      {
        name: "get-sum",
        description: "Returns the sum",
        inputSchema: schema({ a: { type: "number" }, b: { type: "number" } }, ["a", "b"]),
        annotations: { readOnlyHint: true },
      },
    ];
    const { tools, errors } = toDataTools(listed, OPTIONS);
    expect(errors).toEqual([]);
    expect(tools).toHaveLength(1);
    expect(tools[0]?.definition).toMatchObject({
      name: "get_sum",
      description: "Returns the sum",
      side_effect: false,
      group: "mcp:everything",
      secret_headers: ["Authorization"],
      parameters: { type: "object", required: ["a", "b"] },
      request: { method: "POST", url: OPTIONS.url, protocol: "mcp", mcp_tool: "get-sum", headers: OPTIONS.headers },
    });
    expect(tools[0]?.definition.request.body).toBeUndefined();
  });

  it("is side-effecting unless the server says read-only", () => {
    const { tools } = toDataTools(
      [
        { name: "a", description: "x", annotations: { readOnlyHint: false } },
        { name: "b", description: "x" },
        { name: "c", description: "x", annotations: { readOnlyHint: true } },
      ],
      OPTIONS,
    );
    expect(tools.map((t) => [t.definition.name, t.definition.side_effect])).toEqual([
      ["a", true],
      ["b", true],
      ["c", false],
    ]);
  });

  it("falls back to title, then annotations.title, then a sentence for the description", () => {
    const { tools } = toDataTools(
      [
        { name: "t1", description: "  ", title: "Title One" },
        { name: "t2", annotations: { title: "Annotated" } },
        { name: "t3" },
      ],
      OPTIONS,
    );
    expect(tools.map((t) => t.definition.description)).toEqual([
      "Title One",
      "Annotated",
      "Calls the tool 't3' of the MCP server everything.",
    ]);
  });

  it("reports an inputSchema outside the safe subset as an error naming the construct; the others convert", () => {
    const listed: McpToolInfo[] = [
      {
        name: "pick",
        description: "x",
        inputSchema: schema({ v: { anyOf: [{ type: "string" }, { type: "number" }] } }),
      },
      {
        name: "ref",
        description: "x",
        inputSchema: { type: "object", properties: { n: { $ref: "#/$defs/n" } }, $defs: { n: { type: "string" } } },
      },
      { name: "ok", description: "x", inputSchema: schema({ q: { type: "string" } }) },
    ];
    const { tools, errors } = toDataTools(listed, OPTIONS);
    expect(tools.map((t) => t.definition.name)).toEqual(["ok"]);
    expect(errors.map((e) => e.tool)).toEqual(["pick", "ref"]);
    expect(errors[0]?.error).toContain("parameters.properties.v: 'anyOf' is not allowed");
    expect(errors[0]?.mcp_tool).toBe("pick");
    expect(errors[1]?.error).toContain("'$ref' is not allowed");
    expect(errors[1]?.error).toContain("'$defs' is not allowed");
  });

  it("refuses a name a code tool owns", () => {
    const { tools, errors } = toDataTools([{ name: "calculate", description: "x" }], {
      ...OPTIONS,
      reservedNames: new Set(["calculate"]),
    });
    expect(tools).toEqual([]);
    expect(errors[0]).toMatchObject({ tool: "calculate", mcp_tool: "calculate" });
    expect(errors[0]?.error).toContain("'calculate' is already a code tool");
  });

  it("reports names renamed because of a collision on the same server", () => {
    const { tools, renamed } = toDataTools(
      [
        { name: "get-sum", description: "x" },
        { name: "get_sum", description: "y" },
      ],
      OPTIONS,
    );
    expect(tools.map((t) => [t.mcpName, t.definition.name])).toEqual([
      ["get-sum", "get_sum_2"],
      ["get_sum", "get_sum"],
    ]);
    expect(renamed).toEqual([
      { tool: "get_sum_2", mcp_tool: "get-sum", reason: "'get-sum' and 'get_sum' both normalize to 'get_sum'" },
    ]);
  });

  it("accepts a tool without inputSchema (no parameters)", () => {
    const { tools } = toDataTools([{ name: "ping", description: "x" }], OPTIONS);
    expect(tools[0]?.definition.parameters).toEqual({ type: "object", properties: {} });
  });
});
