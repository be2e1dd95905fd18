/**
 * The public API of the tool model (lib/tools): definition validation, flat
 * sugar, the safe JSON Schema subset, placeholders, argument validation, json
 * paths and halt_when. Pure: no IO, no next/, db/, app/ or components/.
 */
export * from "./types";
export { parseFlatSugar, toFlatSugar, type ParseFlatSugarResult } from "./flat-sugar";
export { checkSafeSchema, SAFE_SCHEMA_TYPES, SAFE_SCHEMA_LIMITS } from "./safe-schema";
export {
  parseJsonPath,
  readJsonPath,
  MAX_JSON_PATH_LENGTH,
  type JsonPathStep,
  type ParseJsonPathResult,
  type ReadJsonPathResult,
} from "./json-path";
export {
  splitTemplate,
  listPlaceholders,
  listMalformedPlaceholders,
  hasPlaceholderSyntax,
  type Placeholder,
  type PlaceholderKind,
  type TemplatePart,
} from "./placeholders";
export { evaluateHalt, canonicalScalar, type HaltVerdict } from "./halt";
export { validateArguments, MAX_ARGUMENT_PROBLEMS, type ValidateArgumentsResult } from "./validate-arguments";
export {
  validateToolDefinition,
  TOOL_NAME_PATTERN,
  MAX_TOOL_NAME_LENGTH,
  MAX_TOOL_TIMEOUT_S,
  MAX_DEFINITION_PROBLEMS,
  type ToolWritePath,
  type ValidateToolDefinitionOptions,
  type ValidateToolDefinitionResult,
} from "./validate-definition";
export { validateParameters, type ValidateParametersResult } from "./validate-parameters";
export { checkUrlTemplate, URL_SCHEME_MESSAGE } from "./check-url-template";
export { substituteEnv, isSecretEnvName } from "./substitute-env";
export { toJsonValue, JSON_INPUT_LIMITS } from "./to-json-value";
export { isLonePlaceholder } from "./normalize-body";
export {
  findLiteralCredentials,
  hasLiteralCredential,
  isCredentialHeaderName,
  literalCredentialMessage,
} from "./literal-credentials";
export { compileLinearRegExp, MAX_PATTERN_PROGRAM_SIZE, type LinearRegExp } from "./linear-regexp";
export { schemaPatternSize } from "./schema-pattern-size";
