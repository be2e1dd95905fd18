/**
 * The bounds of one MCP import (discovery and what it stores). A server is
 * not trusted to be small: without them one import could fill the database,
 * the catalog every turn loads, or the memory of the process reading it.
 * Sized far above real servers (server-everything: 13 tools, ~20 KiB).
 */
export const MCP_IMPORT_LIMITS = {
  /** Each HTTP response read during discovery (decoded bytes). */
  maxResponseBytes: 4 * 1024 * 1024,
  /**
   * One tool's name (UTF-8 bytes); over it the tool is an errors[] entry. The name is stored as
   * `request.mcp_tool` and sent with every call; MCP says names SHOULD be at most 128 characters.
   */
  maxNameBytes: 1024,
  /** One tool's description (UTF-8 bytes); over it the tool is an errors[] entry. */
  maxDescriptionBytes: 4 * 1024,
  /** One tool's inputSchema, serialized as JSON (UTF-8 bytes); over it the tool is an errors[] entry. */
  maxSchemaBytes: 64 * 1024,
  /**
   * The patterns of all the tools of one import, as regex instructions once expanded (see
   * patternProgramSize): a tool that would take the sum past it is an errors[] entry. Each schema
   * is held to 4,000 (tens of ms to compile); this keeps a whole import near half a second.
   */
  maxImportPatternSize: 100_000,
  /** Tools one server may list; over it the whole import is refused (422). */
  maxTools: 1000,
  /** Everything one import stores (the serialized definitions); over it the whole import is refused (422). */
  maxStoredBytes: 8 * 1024 * 1024,
} as const;

/** `4 MiB`, `64 KiB`, `512 bytes`: a limit as a person reads it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
