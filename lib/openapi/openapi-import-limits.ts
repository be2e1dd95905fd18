/**
 * The bounds of one OpenAPI import. A document is not trusted to be small:
 * without them one import could fill the database or the memory of the
 * process parsing it. Sized above the largest real description we know
 * (GitHub's REST API: 1,223 operations, ~12.4 MiB of JSON).
 */
export const OPENAPI_IMPORT_LIMITS = {
  /** The document as fetched or posted (UTF-8 bytes of its text). */
  maxDocumentBytes: 16 * 1024 * 1024,
  /**
   * Nodes of the document once every internal `$ref` is inlined and every YAML alias counted where
   * it is used: a few kilobytes of references can otherwise stand for billions of nodes, and the
   * dereferencer would run for hours. GitHub's description: about 2 million.
   */
  maxDocumentNodes: 10_000_000,
  /**
   * Levels of the document once inlined the same way (each `$ref` counting as one): deeper, it
   * would overflow the stack of the code that walks it. GitHub's description: 35.
   */
  maxDocumentDepth: 1000,
  /**
   * The patterns of all the tools of one import, as regex instructions once expanded (see
   * patternProgramSize): an operation that would take the sum past it is an errors[] entry (as
   * MCP imports do). Each schema is held to 4,000; this keeps a whole import near half a second.
   */
  maxImportPatternSize: 100_000,
  /** Operations one document may hold; over it the import is refused (422). */
  maxOperations: 2000,
  /** Everything one import stores (the serialized definitions); over it the import is refused (422). */
  maxStoredBytes: 32 * 1024 * 1024,
  /** The document fetch (ms). */
  fetchTimeoutMs: 30_000,
} as const;
