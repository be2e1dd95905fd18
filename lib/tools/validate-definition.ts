/**
 * The one gate every write path (API, manifest, config file, MCP ingestion)
 * passes a data tool through: it turns a loose, untrusted definition into
 * the normalized DataToolDefinition that is stored and executed, or explains
 * in one message everything that is wrong with it.
 */
import { parseJsonPath } from "./json-path";
import { findLiteralCredentials } from "./literal-credentials";
import { toJsonValue } from "./to-json-value";
import {
  DEFAULT_TOOL_TIMEOUT_S,
  EXTRACT_KINDS,
  type DataToolDefinition,
  type JsonValue,
  type ToolResponse,
} from "./types";
import { validateHaltWhen } from "./validate-halt-when";
import { validateParameters } from "./validate-parameters";
import { validateRequest, type ToolWritePath } from "./validate-request";
import { errorMessage } from "@/lib/errors";

/** Re-exported so callers import every option type from here. */
export type { ToolWritePath } from "./validate-request";

/** Caller-supplied context: the write path and what only the caller can know. */
export interface ValidateToolDefinitionOptions {
  /** Which write path the definition came through; only "manifest" substitutes {{env.*}}. */
  writePath: ToolWritePath;
  /** Environment for manifest {{env.*}} substitution; absent = empty. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Manifest path: whether a secret is provisioned; absent = none is (fail closed). */
  isSecretProvisioned?: (name: string) => boolean;
  /** Names a data tool may not take (code tools and system tools). */
  reservedNames?: ReadonlySet<string>;
  /**
   * "refuse" (default, every write): a credential header with a literal value
   * that is not in secret_headers is a problem. "allow": re-checking rows stored
   * before that rule, which keep working (doctor lists them instead).
   */
  literalCredentials?: "refuse" | "allow";
}

/** The normalized tool, or one message (problems joined by "; "). */
export type ValidateToolDefinitionResult = { ok: true; tool: DataToolDefinition } | { ok: false; error: string };

/** The spec's name rule (`/\A[a-z][a-z0-9_]*\z/`). */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
/** Longer names are refused: 64 is a common provider limit for function names. */
export const MAX_TOOL_NAME_LENGTH = 64;
/** Upper bound for `timeout`, in seconds. */
export const MAX_TOOL_TIMEOUT_S = 300;
/** More problems than this are summarized: the message stays readable and bounded. */
export const MAX_DEFINITION_PROBLEMS = 20;

const TOP_FIELDS = [
  "name",
  "description",
  "parameters",
  "request",
  "response",
  "secret_headers",
  "side_effect",
  "timeout",
  "group",
  "tags",
  "halt_when",
];
const RESPONSE_FIELDS = ["extract", "path"];

/**
 * Validates `input` for `options.writePath`. On success `tool` holds only
 * fields the input justified plus the documented defaults (parameters
 * `{type:"object",properties:{}}`, response `{extract:"body_raw"}`,
 * side_effect from the method, timeout 30, group null, empty headers/query/
 * secret_headers/tags); it shares no object with `input`. On failure `error`
 * lists the problems joined by "; ". null counts as absent for optional
 * fields. Never throws, for any input.
 */
export function validateToolDefinition(
  input: unknown,
  options: ValidateToolDefinitionOptions,
): ValidateToolDefinitionResult {
  try {
    const opts: ValidateToolDefinitionOptions = options ?? { writePath: "api" };
    const copied = toJsonValue(input);
    if (!copied.ok) return { ok: false, error: `tool definition: ${copied.error}` };
    const def = copied.value;
    if (!isObject(def)) return { ok: false, error: "a tool definition must be a JSON object" };

    const problems: string[] = [];
    for (const key of Object.keys(def)) {
      if (!TOP_FIELDS.includes(key)) problems.push(`unknown field '${key}'`);
    }
    const name = checkName(def.name, opts.reservedNames, problems);
    const description = checkDescription(def.description, problems);
    const params = validateParameters(def.parameters);
    if (!params.ok) problems.push(...params.problems);
    const paramNames = params.ok ? topLevelNames(params.schema.properties) : null;
    const validated = validateRequest(
      def.request,
      def.secret_headers,
      {
        writePath: opts.writePath,
        env: opts.env ?? {},
        isSecretProvisioned: opts.isSecretProvisioned,
        paramNames,
      },
      problems,
    );
    if (validated && opts.literalCredentials !== "allow") {
      problems.push(...findLiteralCredentials(validated.request.headers, validated.secretHeaders));
    }
    const response = checkResponse(def.response, problems);
    const sideEffect = optional(def.side_effect, "side_effect must be true or false", problems, (v) =>
      typeof v === "boolean" ? v : undefined,
    );
    const timeout = optional(
      def.timeout,
      `timeout must be a number of seconds greater than 0 and at most ${MAX_TOOL_TIMEOUT_S}`,
      problems,
      (v) => (typeof v === "number" && v > 0 && v <= MAX_TOOL_TIMEOUT_S ? v : undefined),
    );
    const group = optional(def.group, "group must be a string", problems, (v) =>
      typeof v === "string" ? v : undefined,
    );
    const tags = checkTags(def.tags, problems);
    const haltWhen = validateHaltWhen(def.halt_when, problems);

    if (problems.length > 0) return { ok: false, error: joinProblems(problems) };
    // Every piece is non-null once no problem was recorded; the checks below
    // only narrow the types.
    if (name === null || description === null || !params.ok || !validated || !response || !tags || haltWhen === null) {
      return { ok: false, error: "tool definition is invalid" };
    }
    const { request, secretHeaders } = validated;
    const tool: DataToolDefinition = {
      name,
      description,
      parameters: params.schema,
      request,
      response,
      secret_headers: secretHeaders,
      // Drives checkpoint/replay: a safe method is assumed repeatable.
      side_effect: sideEffect ?? !(request.method === "GET" || request.method === "HEAD"),
      timeout: timeout ?? DEFAULT_TOOL_TIMEOUT_S,
      group: group === undefined || group.trim() === "" ? null : group.trim(),
      tags,
    };
    if (haltWhen !== undefined) tool.halt_when = haltWhen;
    return { ok: true, tool };
  } catch (e) {
    return { ok: false, error: `tool definition could not be validated: ${errorMessage(e)}` };
  }
}

function checkName(
  raw: JsonValue | undefined,
  reserved: ReadonlySet<string> | undefined,
  problems: string[],
): string | null {
  if (raw === undefined || raw === null || raw === "") {
    problems.push("name is required");
    return null;
  }
  if (typeof raw !== "string") {
    problems.push("name must be a string");
    return null;
  }
  const before = problems.length;
  if (!TOOL_NAME_PATTERN.test(raw)) {
    problems.push(
      `name '${clip(raw)}' must match /^[a-z][a-z0-9_]*$/ (a lowercase letter, then lowercase letters, digits or _)`,
    );
  }
  if (raw.length > MAX_TOOL_NAME_LENGTH) problems.push(`name must be at most ${MAX_TOOL_NAME_LENGTH} characters`);
  // Code tools win collisions: a data tool may not shadow one (nor a system tool).
  if (reserved?.has(raw)) problems.push(`'${raw}' is already a code tool`);
  return problems.length > before ? null : raw;
}

function checkDescription(raw: JsonValue | undefined, problems: string[]): string | null {
  if (raw !== undefined && raw !== null && typeof raw !== "string") {
    problems.push("description must be a string");
    return null;
  }
  // It is what the model reads to decide when to call the tool.
  if (typeof raw !== "string" || raw.trim() === "") {
    problems.push("description is required (it is what the model reads)");
    return null;
  }
  return raw;
}

function checkResponse(raw: JsonValue | undefined, problems: string[]): ToolResponse | null {
  if (raw === undefined || raw === null) return { extract: "body_raw" };
  if (!isObject(raw)) {
    problems.push("response must be an object");
    return null;
  }
  const start = problems.length;
  for (const key of Object.keys(raw)) {
    if (!RESPONSE_FIELDS.includes(key)) problems.push(`unknown field 'response.${key}'`);
  }
  const extract = raw.extract ?? "body_raw";
  const hasPath = raw.path !== undefined && raw.path !== null;
  if (typeof extract !== "string" || !(EXTRACT_KINDS as readonly string[]).includes(extract)) {
    problems.push(`response.extract must be one of ${EXTRACT_KINDS.join(", ")}`);
    return null;
  }
  if (extract !== "json_path") {
    if (hasPath) problems.push(`response.path is used only with extract "json_path" (extract is "${extract}")`);
    return problems.length > start ? null : { extract: extract as "body_raw" | "status" };
  }
  if (!hasPath) {
    problems.push(`response.path is required when extract is "json_path"`);
    return null;
  }
  const parsed = parseJsonPath(raw.path);
  if (!parsed.ok) {
    problems.push(`response.path: ${parsed.error}`);
    return null;
  }
  return problems.length > start ? null : { extract: "json_path", path: (raw.path as string).trim() };
}

function checkTags(raw: JsonValue | undefined, problems: string[]): string[] | null {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push("tags must be a list of strings");
    return null;
  }
  const seen = new Set<string>();
  const start = problems.length;
  raw.forEach((t, i) => {
    if (typeof t !== "string" || t.trim() === "") {
      problems.push(`tags[${i}] must be a non-empty string`);
      return;
    }
    const tag = t.trim();
    if (seen.has(tag)) problems.push(`tags: duplicate tag '${clip(tag)}'`);
    seen.add(tag);
  });
  return problems.length > start ? null : [...seen];
}

// An optional field: absent/null -> undefined, valid -> the value, else a problem.
function optional<T>(
  raw: JsonValue | undefined,
  message: string,
  problems: string[],
  accept: (v: JsonValue) => T | undefined,
): T | undefined {
  if (raw === undefined || raw === null) return undefined;
  const v = accept(raw);
  if (v === undefined) problems.push(message);
  return v;
}

function topLevelNames(properties: unknown): ReadonlySet<string> {
  return new Set(isObject(properties as JsonValue) ? Object.keys(properties as object) : []);
}

function joinProblems(problems: string[]): string {
  const unique = [...new Set(problems)];
  const shown = unique.slice(0, MAX_DEFINITION_PROBLEMS);
  const more = unique.length - shown.length;
  return shown.join("; ") + (more > 0 ? `; … and ${more} more` : "");
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v);
}
