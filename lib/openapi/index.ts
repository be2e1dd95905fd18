/**
 * lib/openapi: OpenAPI documents -> data tools (pure apart from parsing):
 * parse the text, dereference it (internal references only), list its
 * operations, convert each to a data tool definition.
 */
export { OPENAPI_IMPORT_LIMITS } from "./openapi-import-limits";
export { measureInlinedDocument, type InlinedDocumentSize } from "./measure-inlined-document";
export { parseDocumentText, type ParseDocumentTextResult } from "./parse-document-text";
export { loadOpenApiDocument, type LoadOpenApiDocumentResult } from "./load-openapi-document";
export type { DocumentOperations, Operation } from "./list-operations";
export type { RequiredSecret } from "./security-headers";
export {
  toDataTools,
  openApiGroup,
  operationKey,
  type ConvertedOperation,
  type OperationError,
  type ToDataToolsOptions,
  type ToDataToolsResult,
} from "./to-data-tools";
