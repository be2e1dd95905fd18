import { describe, expect, it, vi } from "vitest";
import { openDb } from "@/db/client";
import { listToolsInGroup } from "@/db/queries/tools";
import { DomainError } from "@/lib/errors";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { MCP_IMPORT_LIMITS, type DiscoverToolsResult, type McpToolInfo } from "@/lib/mcp";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { importMcpServer } from "@/lib/services/mcp/import-mcp-server";
import { operatorPrincipal } from "@/lib/access/principal";

const OPERATOR = operatorPrincipal("api");

const URL_ = "http://127.0.0.1:9/mcp";

function run(result: DiscoverToolsResult) {
  const db = openDb(":memory:");
  const discover = vi.fn(async () => result);
  const done = importMcpServer(
    db,
    OPERATOR,
    { name: "big", url: URL_ },
    { posture: DEV_POSTURE, secrets: staticSecrets({}), discover },
  );
  return { db, done };
}

async function apiError(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DomainError);
  return e as DomainError;
}

describe("importMcpServer: bounds of the whole import", () => {
  it("answers 422 for a server over discovery's bounds (too many tools, a response too large), writing nothing", async () => {
    const { db, done } = run({
      ok: false,
      kind: "too-large",
      error: "the MCP server lists more than 1000 tools (the limit of one import)",
    });
    const e = await apiError(done);
    expect(e).toMatchObject({ code: "validation_failed" });
    expect(e.message).toBe(
      `the MCP server at ${URL_} is too large to import: the MCP server lists more than 1000 tools (the limit of one import)`,
    );
    expect(await listToolsInGroup(db, "mcp:big")).toEqual([]);
  });

  it("answers 422 when what it would store is over 8 MiB, writing nothing", async () => {
    // Each tool is within its own bounds (a schema just under 64 KiB); together they are over 8 MiB.
    const per = MCP_IMPORT_LIMITS.maxSchemaBytes - 200;
    const count = Math.ceil(MCP_IMPORT_LIMITS.maxStoredBytes / per) + 1;
    const tools: McpToolInfo[] = Array.from({ length: count }, (_, i) => ({
      name: `t${i}`,
      inputSchema: { type: "object", properties: { q: { type: "string", description: "x".repeat(per - 100) } } },
    }));
    const { db, done } = run({ ok: true, tools, server: null });
    const e = await apiError(done);
    expect(e).toMatchObject({ code: "validation_failed" });
    expect(e.message).toMatch(
      new RegExp(
        `^the MCP server at ${URL_} is too large to import: its ${count} tools take \\d+ bytes, over the limit of 8 MiB per import$`,
      ),
    );
    expect(e.details).toMatchObject({ limit: MCP_IMPORT_LIMITS.maxStoredBytes });
    expect(await listToolsInGroup(db, "mcp:big")).toEqual([]);
  });

  it("imports the tools within their bounds and lists the others in errors", async () => {
    const { db, done } = run({
      ok: true,
      tools: [
        { name: "fine", description: "ok" },
        { name: "wordy", description: "x".repeat(MCP_IMPORT_LIMITS.maxDescriptionBytes + 1) },
      ],
      server: null,
    });
    const r = await done;
    expect(r.created).toEqual(["fine"]);
    expect(r.errors).toEqual([
      { tool: "wordy", mcp_tool: "wordy", error: "description is 4097 bytes, over the limit of 4 KiB per MCP tool" },
    ]);
    expect((await listToolsInGroup(db, "mcp:big")).map((t) => t.name)).toEqual(["fine"]);
  });
});
