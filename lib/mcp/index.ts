/**
 * lib/mcp: MCP discovery (ingestion) and the MCP call envelope (DESIGN D7).
 * Pure of db/ and next/: services wire it to storage (import) and to
 * lib/http-tools' `deps.mcp` seam (calls).
 */
export { discoverTools, DISCOVERY_DEFAULTS, type DiscoverToolsInput, type DiscoverToolsResult } from "./discover-tools";
export {
  toDataTools,
  mcpGroup,
  type ConvertedTool,
  type ConversionError,
  type McpToolInfo,
  type RenamedTool,
  type ToDataToolsOptions,
  type ToDataToolsResult,
} from "./to-data-tool";
export { normalizeToolName, normalizeToolNames, LEADING_PREFIX, type NormalizedName } from "./normalize-tool-names";
export { postToolsCall, type McpCallTarget } from "./post-tools-call";
export { createMcpCaller } from "./create-mcp-caller";
export { McpSessions, MAX_MCP_SESSIONS, type McpSession, type OpenResult } from "./mcp-sessions";
export {
  readRpcResponse,
  parseSseData,
  describeRpcError,
  type ReadRpcResult,
  type RpcResponse,
} from "./read-rpc-response";
export { unwrapResult, type UnwrappedResult } from "./unwrap-result";
export { MCP_IMPORT_LIMITS, formatBytes } from "./import-limits";
export { RESUME_LIMITS } from "./resume-stream";
