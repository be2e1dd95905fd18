/**
 * MCP tool -> data tool (spec "MCP tools are not a separate runtime type"):
 * each tool a server lists becomes a definition that POSTs a JSON-RPC
 * `tools/call` to the server, validated by the same gate as every other write
 * path (validateToolDefinition, write path "mcp").
 */
import { MAX_PATTERN_PROGRAM_SIZE, schemaPatternSize, validateToolDefinition } from "@/lib/tools";
import type { DataToolDefinition } from "@/lib/tools/types";
import { formatBytes, MCP_IMPORT_LIMITS } from "./import-limits";
import { normalizeToolNames } from "./normalize-tool-names";

/** What discovery reports about one tool (the parts of an MCP `Tool` we read). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { title?: string; readOnlyHint?: boolean };
}

/** Where the tools come from and how every call must be sent. */
export interface ToDataToolsOptions {
  /** The import's instance name: the group is `mcp:<instance>`. */
  instance: string;
  /** The server's MCP endpoint (http/https). */
  url: string;
  /** Sent with discovery and every call; values may hold `{{secret.*}}`. */
  headers: Record<string, string>;
  /** The headers to mask and to drop on a cross-origin redirect (must include every one holding a secret). */
  secretHeaders: string[];
  /** Names a data tool may not take (code tools, system tools). */
  reservedNames?: ReadonlySet<string>;
  /** Per-tool bounds (default MCP_IMPORT_LIMITS). */
  limits?: ToolLimits;
}

/** The bounds each listed tool is held to. */
export type ToolLimits = {
  maxNameBytes: number;
  maxDescriptionBytes: number;
  maxSchemaBytes: number;
  /** Shared by all the tools of the import, not per tool. */
  maxImportPatternSize: number;
};

/** A tool that converted, with the server's name it calls. */
export interface ConvertedTool {
  mcpName: string;
  definition: DataToolDefinition;
}

/** Why one tool did not convert (`tool` is the normalized name). */
export interface ConversionError {
  tool: string;
  mcp_tool: string;
  error: string;
}

/** A tool whose normalized name was taken by another tool of the same server. */
export interface RenamedTool {
  tool: string;
  mcp_tool: string;
  reason: string;
}

/** Every tool sorted into converted or refused, plus the collision renames. */
export interface ToDataToolsResult {
  tools: ConvertedTool[];
  errors: ConversionError[];
  renamed: RenamedTool[];
}

/** The group every tool of an instance is written with. */
export function mcpGroup(instance: string): string {
  return `mcp:${instance}`;
}

/**
 * Converts every listed tool: name normalized (see normalizeToolNames; the
 * server's name kept in `request.mcp_tool`), description from `description`,
 * else `title`/`annotations.title`, else a sentence naming the tool and the
 * instance; `side_effect` false only when `annotations.readOnlyHint` is true;
 * `parameters` = `inputSchema` as sent (absent -> no parameters). A tool
 * whose name is over `limits.maxNameBytes` (1 KiB; the entry shows it cut to
 * 200 characters), whose description is over `limits.maxDescriptionBytes` (4 KiB), whose
 * patterns would take the import's past `limits.maxImportPatternSize`, or whose
 * serialized inputSchema is over `limits.maxSchemaBytes` (64 KiB) is an
 * `errors` entry (checked before validation, so a huge schema is never
 * compiled); so is a tool whose definition does not validate (typically an inputSchema outside the
 * safe subset: the error names the construct and its path) is an `errors`
 * entry; the others are unaffected. Output order follows code-point order of
 * the server names. Never throws.
 */
export function toDataTools(listed: readonly McpToolInfo[], options: ToDataToolsOptions): ToDataToolsResult {
  const byName = new Map<string, McpToolInfo>();
  for (const t of listed) if (!byName.has(t.name)) byName.set(t.name, t);
  const result: ToDataToolsResult = { tools: [], errors: [], renamed: [] };
  const limits = options.limits ?? MCP_IMPORT_LIMITS;
  let patternSize = 0;
  for (const { mcpName, name, collision } of normalizeToolNames([...byName.keys()])) {
    const info = byName.get(mcpName) as McpToolInfo;
    if (collision) result.renamed.push({ tool: name, mcp_tool: mcpName, reason: collision });
    const oversize = overLimit(info, options.instance, limits);
    if (oversize !== null) {
      result.errors.push({ tool: name, mcp_tool: shownName(mcpName), error: oversize });
      continue;
    }
    // Compiling patterns is the costly part of validation, and validation compiles at most one
    // schema's budget of them (over it the tool is refused, with its own message): the import as
    // a whole has a budget of what its tools would compile.
    const cost = Math.min(schemaPatternSize(info.inputSchema, MAX_PATTERN_PROGRAM_SIZE), MAX_PATTERN_PROGRAM_SIZE);
    if (patternSize + cost > limits.maxImportPatternSize) {
      result.errors.push({
        tool: name,
        mcp_tool: mcpName,
        error: `its patterns (about ${cost} regex instructions once expanded) would take the import's patterns past ${limits.maxImportPatternSize}, the limit of one import`,
      });
      continue;
    }
    patternSize += cost;
    const checked = validateToolDefinition(definitionInput(info, name, options), {
      writePath: "mcp",
      reservedNames: options.reservedNames,
    });
    if (checked.ok) result.tools.push({ mcpName, definition: checked.tool });
    else result.errors.push({ tool: name, mcp_tool: mcpName, error: checked.error });
  }
  return result;
}

function definitionInput(info: McpToolInfo, name: string, options: ToDataToolsOptions): Record<string, unknown> {
  const input: Record<string, unknown> = {
    name,
    description: describe(info, options.instance),
    request: {
      method: "POST",
      url: options.url,
      headers: { ...options.headers },
      protocol: "mcp",
      mcp_tool: info.name,
    },
    secret_headers: [...options.secretHeaders],
    side_effect: info.annotations?.readOnlyHint !== true,
    group: mcpGroup(options.instance),
  };
  if (info.inputSchema !== undefined && info.inputSchema !== null) input.parameters = info.inputSchema;
  return input;
}

function overLimit(info: McpToolInfo, instance: string, limits: ToolLimits): string | null {
  const nameBytes = Buffer.byteLength(info.name, "utf8");
  if (nameBytes > limits.maxNameBytes)
    return `name is ${nameBytes} bytes, over the limit of ${formatBytes(limits.maxNameBytes)} per MCP tool`;
  const description = Buffer.byteLength(describe(info, instance), "utf8");
  if (description > limits.maxDescriptionBytes) {
    return `description is ${description} bytes, over the limit of ${formatBytes(limits.maxDescriptionBytes)} per MCP tool`;
  }
  if (info.inputSchema === undefined || info.inputSchema === null) return null;
  let serialized: string;
  try {
    serialized = JSON.stringify(info.inputSchema) ?? "";
  } catch {
    // Nested past the stack: far over any limit anyway.
    return `inputSchema cannot be serialized (nested too deeply), over the limit of ${formatBytes(limits.maxSchemaBytes)} per MCP tool`;
  }
  const schema = Buffer.byteLength(serialized, "utf8");
  if (schema > limits.maxSchemaBytes)
    return `inputSchema is ${schema} bytes serialized, over the limit of ${formatBytes(limits.maxSchemaBytes)} per MCP tool`;
  return null;
}

/** A name as an errors entry shows it: an oversize one cut, so the answer does not repeat megabytes. */
function shownName(mcpName: string): string {
  return mcpName.length > 200 ? `${mcpName.slice(0, 200)}…` : mcpName;
}

function describe(info: McpToolInfo, instance: string): string {
  for (const candidate of [info.description, info.title, info.annotations?.title]) {
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate.trim();
  }
  return `Calls the tool '${info.name}' of the MCP server ${instance}.`;
}
