/**
 * lib/http-tools: executing a data tool (DESIGN §2): validate the arguments,
 * build the request (placeholders, encoding, secrets), send it through
 * lib/egress, shape the result, decide halt_when, and write the call record.
 * `executeDataTool` is the entry point; the rest is exported for the tool
 * test endpoint, the Studio and lib/mcp.
 */
export { executeDataTool, type DataToolResult, type ExecuteDataToolDeps } from "./execute-data-tool";
export { buildRequest, type BuildRequestResult, type BuiltRequest } from "./build-request";
export {
  extractResult,
  parseJsonBody,
  bodyText,
  ERROR_BODY_JSON_MAX_BYTES,
  ERROR_BODY_PREVIEW_CHARS,
  type ExtractedResult,
  type ReceivedResponse,
} from "./extract-result";
export {
  clipText,
  finalizeRecord,
  maskHeaders,
  maskUrl,
  redactContent,
  MAX_RECORD_RESULT_CHARS,
  type CallRecord,
  type RecordedEgress,
  type RecordedRedirect,
  type RecordedRequest,
} from "./call-record";
export {
  executeMcpTool,
  type McpCallInfo,
  type McpCallOutcome,
  type McpCaller,
  type McpMessage,
  type McpSend,
  type McpSendResult,
} from "./execute-mcp-tool";
