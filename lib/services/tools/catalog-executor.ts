/**
 * The engine's ToolExecutor for one turn: looks a tool up in the catalog (a Map,
 * never a prototype chain), runs a code tool in-process or a data/MCP tool
 * through lib/http-tools, and always answers with an outcome (never throws).
 */
import type { ToolCallRequest, ToolExecutor, ToolOutcome } from "@/lib/engine/ports";
import type { EgressPosture } from "@/lib/egress";
import { executeDataTool, type McpCaller } from "@/lib/http-tools";
import type { SecretSource } from "@/lib/secrets/secret-source";
import { validateArguments } from "@/lib/tools";
import { clipResult, localCallRecord } from "./local-call-record";
import type { Catalog, CatalogEntry } from "./catalog";
import { getMcpCaller } from "@/lib/services/mcp/mcp-caller";
import { errorMessage } from "@/lib/errors";

export interface CatalogExecutorDeps {
  catalog: Catalog;
  posture: EgressPosture;
  secrets: SecretSource;
  /** Runs MCP tools (DESIGN D7); default: the process-wide caller (one session cache). */
  mcp?: McpCaller;
}

/** Builds the executor a turn uses. */
export function createCatalogExecutor(deps: CatalogExecutorDeps): ToolExecutor {
  return {
    async execute(request: ToolCallRequest): Promise<ToolOutcome> {
      const entry = deps.catalog.entries.get(request.tool);
      if (!entry || entry.status !== "ok") {
        const error = entry
          ? `tool '${request.tool}' is unavailable: ${entry.status === "dropped" ? entry.problem : ""}`
          : `unknown tool: ${request.tool}`;
        return {
          ok: false,
          error,
          content: JSON.stringify({ error }),
          record: localCallRecord(request, "data", false, error),
        };
      }
      if (entry.kind === "code") return runCodeTool(entry, request);
      return executeDataTool(entry.definition, request.arguments, request.ctx, {
        posture: deps.posture,
        secrets: deps.secrets,
        callId: request.callId,
        signal: request.signal,
        mcp: deps.mcp ?? getMcpCaller(),
      });
    },
  };
}

async function runCodeTool(
  entry: Extract<CatalogEntry, { kind: "code" }>,
  request: ToolCallRequest,
): Promise<ToolOutcome> {
  const started = Date.now();
  const checked = validateArguments(entry.code.parameters, request.arguments);
  if (!checked.ok) {
    return {
      ok: false,
      error: checked.error,
      content: JSON.stringify({ error: checked.error }),
      record: localCallRecord(request, "code", false, checked.error, started),
    };
  }
  try {
    const value = await entry.code.execute(request.arguments as Record<string, unknown>, {
      ctx: request.ctx,
      signal: request.signal,
    });
    const content = JSON.stringify(value ?? null);
    return {
      ok: true,
      content,
      record: { ...localCallRecord(request, "code", true, undefined, started), result: clipResult(content) },
    };
  } catch (error) {
    const message = errorMessage(error);
    return {
      ok: false,
      error: message,
      content: JSON.stringify({ error: message }),
      record: localCallRecord(request, "code", false, message, started),
    };
  }
}
