/**
 * A loaded OpenAPI document -> data tools of group `openapi:<name>`: each
 * selected operation converted (operationToTool) and validated by the gate
 * of every write path. An operation that cannot become a tool is an
 * `errors[]` entry naming it and why; the others are unaffected.
 */
import { MAX_PATTERN_PROGRAM_SIZE, schemaPatternSize, validateToolDefinition } from "@/lib/tools";
import type { DataToolDefinition } from "@/lib/tools/types";
import type { DocumentOperations, Operation } from "./list-operations";
import { OPENAPI_IMPORT_LIMITS } from "./openapi-import-limits";
import { nameOperations } from "./operation-tool-name";
import { operationToTool } from "./operation-to-tool";
import type { RequiredSecret } from "./security-headers";

export interface ToDataToolsOptions {
  /** The import's name (`[a-z0-9_-]`). */
  importName: string;
  /** Replaces every server URL of the document, whole. */
  server?: string;
  /** Where the document was fetched from: relative server URLs resolve against it. */
  documentUrl?: string;
  /** operationIds, tool names or `METHOD /path`; absent = every operation. */
  operations?: readonly string[];
  /** Security scheme name -> secret name. */
  auth?: Readonly<Record<string, string>>;
  /** Names a data tool may not take (code tools, system tools). */
  reservedNames?: ReadonlySet<string>;
}

/** An operation that became a tool. */
export interface ConvertedOperation {
  /** `GET /pets/{petId}`. */
  operation: string;
  definition: DataToolDefinition;
}

/** Why one operation (or one selection) did not become a tool. */
export interface OperationError {
  /** The tool name it would have had; null for a selection that matched nothing. */
  tool: string | null;
  operation: string;
  operation_id?: string;
  error: string;
}

export interface ToDataToolsResult {
  tools: ConvertedOperation[];
  errors: OperationError[];
  /** Every secret the converted tools reference, once. */
  secrets: RequiredSecret[];
}

/** The group every tool of an import is written with. */
export function openApiGroup(importName: string): string {
  return `openapi:${importName}`;
}

/** `GET /pets/{petId}`: how an operation is named in errors and selections. */
export function operationKey(op: { method: string; path: string }): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}

/** Converts the selected operations. Never throws. */
export function toDataTools(doc: DocumentOperations, options: ToDataToolsOptions): ToDataToolsResult {
  const names = nameOperations(doc.operations);
  const result: ToDataToolsResult = { tools: [], errors: [], secrets: [] };
  const selection = options.operations ? new Set(options.operations) : null;
  const matched = new Set<string>();
  const secrets = new Map<string, RequiredSecret>();
  const patternBudget = OPENAPI_IMPORT_LIMITS.maxImportPatternSize;
  let patternSize = 0;
  doc.operations.forEach((op, i) => {
    const name = names[i] as string;
    const key = operationKey(op);
    if (selection) {
      const hit = [op.operationId, name, key].find((s) => s !== undefined && selection.has(s));
      if (hit === undefined) return;
      matched.add(hit);
    }
    const error = (text: string): void => {
      result.errors.push({
        tool: name,
        operation: key,
        ...(op.operationId ? { operation_id: op.operationId } : {}),
        error: text,
      });
    };
    const base = baseUrl(op, options);
    if (!base.ok) return error(base.problem);
    const converted = operationToTool(op, name, {
      importName: options.importName,
      group: openApiGroup(options.importName),
      baseUrl: base.url,
      schemes: doc.securitySchemes,
      auth: options.auth,
    });
    if (!converted.ok) return error(converted.problems.slice(0, 5).join("; "));
    // Compiling patterns is validation's costly part, at most one schema's budget per tool: the
    // import has a budget of what its tools would compile (as MCP imports do).
    const cost = Math.min(
      schemaPatternSize(converted.input.parameters, MAX_PATTERN_PROGRAM_SIZE),
      MAX_PATTERN_PROGRAM_SIZE,
    );
    if (patternSize + cost > patternBudget)
      return error(
        `its patterns (about ${cost} regex instructions once expanded) would take the import's patterns past ${patternBudget}, the limit of one import`,
      );
    patternSize += cost;
    const checked = validateToolDefinition(converted.input, { writePath: "api", reservedNames: options.reservedNames });
    if (!checked.ok) return error(checked.error);
    result.tools.push({ operation: key, definition: checked.tool });
    for (const s of converted.secrets) if (!secrets.has(s.secret)) secrets.set(s.secret, s);
  });
  for (const wanted of selection ?? []) {
    if (!matched.has(wanted)) {
      result.errors.push({
        tool: null,
        operation: wanted,
        error: `operations: '${wanted}' matches no operation of the document`,
      });
    }
  }
  result.secrets = [...secrets.values()].sort((a, b) => (a.secret < b.secret ? -1 : a.secret > b.secret ? 1 : 0));
  return result;
}

function baseUrl(
  op: Operation,
  options: ToDataToolsOptions,
): { ok: true; url: string } | { ok: false; problem: string } {
  if (options.server !== undefined) return { ok: true, url: options.server };
  const given = op.server;
  // A `{` with a `}` after it (as `/\{[^}]*\}/` would say, without its quadratic retries on unclosed braces).
  const open = given === null ? -1 : given.indexOf("{");
  if (given !== null && open !== -1 && given.indexOf("}", open + 1) !== -1) {
    return {
      ok: false,
      problem: `the server URL '${given.slice(0, 200)}' has a variable without a default: give 'server'`,
    };
  }
  if (given !== null && /^[a-z][a-z0-9+.-]*:/i.test(given)) {
    return /^https?:/i.test(given)
      ? { ok: true, url: given }
      : { ok: false, problem: `the server URL '${given.slice(0, 200)}' is not http/https: give 'server'` };
  }
  if (options.documentUrl === undefined) {
    return {
      ok: false,
      problem:
        given === null
          ? "the document names no server URL: give 'server'"
          : `the server URL '${given.slice(0, 200)}' is relative and the document was not fetched from a URL: give 'server'`,
    };
  }
  try {
    return { ok: true, url: new URL(given ?? "/", options.documentUrl).href };
  } catch {
    return { ok: false, problem: `the server URL '${String(given).slice(0, 200)}' does not resolve: give 'server'` };
  }
}
