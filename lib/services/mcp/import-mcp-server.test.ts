import { describe, expect, it, vi } from "vitest";
import { openDb } from "@/db/client";
import { getTool, listToolsInGroup, writeTools } from "@/db/queries/tools";
import { DomainError } from "@/lib/errors";
import { STRICT_POSTURE } from "@/lib/egress";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import type { DiscoverToolsInput, DiscoverToolsResult, McpToolInfo } from "@/lib/mcp";
import { staticSecrets } from "@/lib/secrets/secret-source";
import type { DataToolDefinition } from "@/lib/tools/types";
import { importMcpServer, type ImportMcpDeps } from "./import-mcp-server";
import { operatorPrincipal } from "@/lib/access/principal";

const OPERATOR = operatorPrincipal("api");

const URL_ = "http://127.0.0.1:9/mcp";
const sum: McpToolInfo = {
  name: "get-sum",
  description: "sum",
  inputSchema: { type: "object", properties: { a: { type: "number" } } },
  annotations: { readOnlyHint: true },
};
const echo: McpToolInfo = { name: "echo", description: "echo" };

function setup(tools: McpToolInfo[] | DiscoverToolsResult, over: Partial<ImportMcpDeps> = {}) {
  const db = openDb(":memory:");
  const state = { tools };
  const discover = vi.fn(async (_input: DiscoverToolsInput): Promise<DiscoverToolsResult> =>
    Array.isArray(state.tools) ? { ok: true, tools: state.tools, server: { name: "fake", version: "1" } } : state.tools,
  );
  const deps: ImportMcpDeps = {
    posture: DEV_POSTURE,
    secrets: staticSecrets({ mcp_key: "s3cret-value" }),
    discover,
    ...over,
  };
  const run = (body: unknown = { name: "everything", url: URL_ }) => importMcpServer(db, OPERATOR, body, deps);
  return { db, state, discover, run };
}

async function apiError(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DomainError);
  return e as DomainError;
}

describe("importMcpServer: refusals write nothing", () => {
  it("refuses a stdio server with the exact message", async () => {
    const { run, discover } = setup([echo]);
    const e = await apiError(run({ name: "x", command: "npx", args: ["server"] }));
    expect(e).toMatchObject({ code: "validation_failed", message: "only HTTP-transport MCP servers are ingestible" });
    expect(discover).not.toHaveBeenCalled();
  });

  it.each([
    [{ name: "Bad Name", url: URL_ }, "name must use only"],
    [{ name: "x", url: "ftp://h/mcp" }, "url must be http/https"],
    [{ name: "x", url: URL_, extra: 1 }, "extra"],
    [{ name: "x", url: URL_, headers: { "X-Chat": "{{ctx.chat_id}}" } }, "only {{secret.*}} placeholders"],
    [
      { name: "x", url: URL_, headers: { Authorization: "Bearer {{secret.nope}}" } },
      "secret 'nope' is not provisioned",
    ],
    [{ name: "x", url: URL_, headers: { "Mcp-Session-Id": "abc" } }, "set by the MCP client"],
    [
      { name: "x", url: URL_, headers: { Authorization: "Bearer s3cret-literal" } },
      "headers.Authorization: 'Authorization' carries a credential",
    ],
    [{ name: "x", url: URL_, headers: { "X-Team-Token": "t0k" } }, "{{secret.api_token}}"],
  ])("refuses %j", async (body, message) => {
    const { run, discover } = setup([echo]);
    const e = await apiError(run(body));
    expect(e.code).toBe("validation_failed");
    expect(e.message).toContain(message);
    expect(discover).not.toHaveBeenCalled();
  });

  it("checks egress before sending: a loopback server under the default posture is egress_blocked", async () => {
    const { run, discover, db } = setup([echo], { posture: STRICT_POSTURE });
    const e = await apiError(run());
    expect(e).toMatchObject({ code: "egress_blocked" });
    expect(e.message).toMatch(/^destination blocked: /);
    expect(e.details).toMatchObject({ rule: expect.any(String), hint: expect.stringContaining("INSIKA_EGRESS") });
    expect(discover).not.toHaveBeenCalled();
    expect(await listToolsInGroup(db, "mcp:everything")).toEqual([]);
  });

  it("answers upstream_failed for a server that is down, secrets redacted", async () => {
    const { run, db } = setup({ ok: false, kind: "failed", error: "connect ECONNREFUSED (sent s3cret-value)" });
    const e = await apiError(
      run({ name: "everything", url: URL_, headers: { Authorization: "Bearer {{secret.mcp_key}}" } }),
    );
    expect(e).toMatchObject({ code: "upstream_failed" });
    expect(e.message).toContain("ECONNREFUSED");
    expect(e.message).not.toContain("s3cret-value");
    expect(await listToolsInGroup(db, "mcp:everything")).toEqual([]);
  });
});

describe("importMcpServer: writes", () => {
  it("creates mcp tools in the group, stores secret references and sends resolved values to discovery", async () => {
    const { run, db, discover } = setup([sum, echo]);
    const r = await run({
      name: "everything",
      url: URL_,
      headers: { Authorization: "Bearer {{secret.mcp_key}}", "X-Team": "blue" },
    });
    expect(r).toMatchObject({
      group: "mcp:everything",
      created: ["echo", "get_sum"],
      updated: [],
      removed: [],
      errors: [],
    });
    expect(discover.mock.calls[0]?.[0].headers).toEqual({ Authorization: "Bearer s3cret-value", "X-Team": "blue" });
    const row = await getTool(db, "get_sum");
    expect(row).toMatchObject({ kind: "mcp", group: "mcp:everything" });
    expect(row?.definition).toMatchObject({
      side_effect: false,
      // Every import header may be a credential: all are masked and dropped on a cross-origin redirect.
      secret_headers: ["Authorization", "X-Team"],
      request: {
        protocol: "mcp",
        mcp_tool: "get-sum",
        headers: { Authorization: "Bearer {{secret.mcp_key}}", "X-Team": "blue" },
      },
    });
    expect(JSON.stringify(row)).not.toContain("s3cret-value");
  });

  it("is idempotent, then updates changed tools and removes the ones no longer listed", async () => {
    const { run, state } = setup([sum, echo]);
    await run();
    const again = await run();
    expect(again).toMatchObject({
      created: [],
      updated: ["echo", "get_sum"],
      unchanged: ["echo", "get_sum"],
      removed: [],
    });
    state.tools = [{ ...sum, description: "a better sum" }];
    const changed = await run();
    expect(changed).toMatchObject({ created: [], updated: ["get_sum"], unchanged: [], removed: ["echo"] });
  });

  it("reports a name taken by another group or by a code tool instead of overwriting", async () => {
    const { run, db } = setup([echo, { name: "calculate", description: "shadow" }]);
    const other: DataToolDefinition = {
      name: "echo",
      description: "mine",
      parameters: { type: "object", properties: {} },
      request: { method: "GET", url: "https://a.example/x", headers: {}, query: {} },
      response: { extract: "body_raw" },
      secret_headers: [],
      side_effect: false,
      timeout: 30,
      group: "mine",
      tags: [],
    };
    await writeTools(db, { writes: [{ definition: other, kind: "data" }], source: "api" });
    const r = await run();
    expect(r.created).toEqual([]);
    expect(r.errors.map((e) => [e.tool, e.error])).toEqual([
      ["calculate", expect.stringContaining("already a code tool")],
      ["echo", "'echo' is already a tool of group 'mine'; it was not overwritten"],
    ]);
    expect((await getTool(db, "echo"))?.definition.description).toBe("mine");
  });

  it("keeps the stored version of a tool the server still lists but that no longer converts", async () => {
    const { run, state, db } = setup([sum]);
    await run();
    state.tools = [{ ...sum, inputSchema: { type: "object", properties: { a: { oneOf: [{ type: "number" }] } } } }];
    const r = await run();
    expect(r.removed).toEqual([]);
    expect(r.errors[0]).toMatchObject({
      tool: "get_sum",
      mcp_tool: "get-sum",
      error: expect.stringContaining("'oneOf' is not allowed"),
    });
    expect(await getTool(db, "get_sum")).toBeDefined();
  });
});
