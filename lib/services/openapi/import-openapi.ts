/**
 * OpenAPI import (POST /v1/openapi/import, `insika openapi import`, the
 * Studio page): adopt the operations of an OpenAPI document as data tools of
 * group `openapi:<name>`. The document is fetched through the egress guard
 * (or posted); it is parsed and dereferenced without any fetch of its own;
 * the write is one transaction, like an MCP import, and nothing is written
 * when the document is refused, unreachable, too large or unparseable.
 */
import type { Db } from "@/db/database";
import { getTool, listToolsInGroup, writeTools, type ToolWrite } from "@/db/queries/tools";
import type { Principal } from "@/lib/access/principal";
import { checkDestination, type EgressPosture, type Resolver } from "@/lib/egress";
import { DomainError, validationFailed } from "@/lib/errors";
import { formatBytes } from "@/lib/mcp/import-limits";
import {
  loadOpenApiDocument,
  measureInlinedDocument,
  OPENAPI_IMPORT_LIMITS,
  openApiGroup,
  parseDocumentText,
  toDataTools,
  type OperationError,
} from "@/lib/openapi";
import { fetchDocument, type FetchDocumentInput, type FetchDocumentResult } from "@/lib/openapi/fetch-document";
import type { SecretSource } from "@/lib/secrets/secret-source";
import { listDialectProblems, type ToolDialectProblem } from "@/lib/services/agents/dialect-problems";
import { recordAudit } from "@/lib/services/audit/record-audit";
import { reservedToolNames } from "@/lib/services/tools/catalog";
import { versionActor } from "@/lib/services/tools/tools";
import { parseOpenApiImportBody } from "./parse-openapi-import-body";

export interface ImportOpenApiDeps {
  posture: EgressPosture;
  secrets: SecretSource;
  resolver?: Resolver;
  /** Replaces the document fetch (tests). */
  fetch?: (input: FetchDocumentInput) => Promise<FetchDocumentResult>;
  source?: "openapi" | "studio";
  /** Bounds (tests shrink them). */
  limits?: Partial<typeof OPENAPI_IMPORT_LIMITS>;
}

/** A secret the imported tools reference: provision it before calling them. */
export interface ImportSecret {
  name: string;
  scheme: string;
  header: string;
  provisioned: boolean;
}

export interface ImportOpenApiResult {
  group: string;
  created: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
  errors: OperationError[];
  secrets: ImportSecret[];
  document: { title: string; version: string; operations: number };
  /** What the providers of agents offered these tools would reject (services/agents/dialect-problems). */
  dialect_problems: ToolDialectProblem[];
}

/**
 * Imports (or re-imports) one document. Throws DomainError: 422
 * `validation_failed` for a bad body, a document over the size cap, one that
 * does not parse (the parser's reason) or has too many operations; 422
 * `egress_blocked` when the guard refuses the URL (or a redirect hop); 502
 * `upstream_failed` when it cannot be fetched. Otherwise writes in one
 * transaction the created/updated tools and removes the group's tools the
 * document (or the selection) no longer has; an operation that failed keeps
 * its stored tool. Re-importing an unchanged document changes nothing.
 */
export async function importOpenApi(
  db: Db,
  actor: Principal,
  body: unknown,
  deps: ImportOpenApiDeps,
): Promise<ImportOpenApiResult> {
  const limits = { ...OPENAPI_IMPORT_LIMITS, ...deps.limits };
  const req = parseOpenApiImportBody(body);
  const group = openApiGroup(req.name);
  const value = await readDocument(req, deps, limits);
  const inlined = measureInlinedDocument(value, {
    maxNodes: limits.maxDocumentNodes,
    maxDepth: limits.maxDocumentDepth,
  });
  if (!inlined.ok && inlined.over === "nodes") {
    throw validationFailed(
      `the document expands to more than ${limits.maxDocumentNodes} nodes once its $refs and YAML aliases are inlined, over the limit of one import`,
      { limit: limits.maxDocumentNodes },
    );
  }
  if (!inlined.ok) {
    throw validationFailed(
      `the document nests more than ${limits.maxDocumentDepth} levels deep once its $refs and YAML aliases are inlined, over the limit of one import`,
      { limit: limits.maxDocumentDepth },
    );
  }

  const loaded = await loadOpenApiDocument(value);
  if (!loaded.ok) throw validationFailed(`the document does not parse: ${loaded.reason}`);
  if (loaded.operations.length > limits.maxOperations) {
    throw validationFailed(
      `the document has ${loaded.operations.length} operations, over the limit of ${limits.maxOperations} per import`,
      { limit: limits.maxOperations, operations: loaded.operations.length },
    );
  }
  const converted = toDataTools(loaded, {
    importName: req.name,
    server: req.server,
    documentUrl: req.url,
    operations: req.operations,
    auth: req.auth,
    reservedNames: reservedToolNames(),
  });
  const errors = [...converted.errors];
  const writes: ToolWrite[] = [];
  for (const { operation, definition } of converted.tools) {
    const existing = await getTool(db, definition.name);
    if (existing && existing.group !== group) {
      const owner = existing.group ? `a tool of group '${existing.group}'` : "a data tool outside any group";
      errors.push({
        tool: definition.name,
        operation,
        error: `'${definition.name}' is already ${owner}; it was not overwritten`,
      });
      continue;
    }
    writes.push({ definition, kind: "data" });
  }
  const storedBytes = writes.reduce((sum, w) => sum + Buffer.byteLength(JSON.stringify(w.definition), "utf8"), 0);
  if (storedBytes > limits.maxStoredBytes) {
    throw validationFailed(
      `the document is too large to import: its ${writes.length} tools take ${storedBytes} bytes, over the limit of ${formatBytes(limits.maxStoredBytes)} per import`,
      { limit: limits.maxStoredBytes, bytes: storedBytes },
    );
  }

  const written = new Set(writes.map((w) => w.definition.name));
  const failed = new Set(errors.map((e) => e.tool));
  const remove = (await listToolsInGroup(db, group))
    .filter((row) => !written.has(row.name) && !failed.has(row.name))
    .map((row) => row.name);
  const outcome = await db.transaction(async (tx) => {
    const done = await writeTools(tx, { writes, remove, source: deps.source ?? "openapi", actor: versionActor(actor) });
    await recordAudit(tx, actor, {
      action: "openapi.import",
      target: `openapi:${req.name}`,
      summary: {
        url: req.url ?? null,
        created: done.created,
        updated: done.updated,
        removed: done.removed,
        errors: errors.length,
      },
    });
    return done;
  });
  const dialectProblems = (await listDialectProblems(db)).filter((p) => written.has(p.tool));
  return {
    group,
    created: outcome.created,
    updated: [...outcome.updated, ...outcome.unchanged].sort(),
    unchanged: outcome.unchanged,
    removed: outcome.removed,
    errors,
    secrets: converted.secrets.map((s) => ({
      name: s.secret,
      scheme: s.scheme,
      header: s.header,
      provisioned: deps.secrets.read(s.secret) !== undefined,
    })),
    document: { title: loaded.title, version: loaded.version, operations: loaded.operations.length },
    dialect_problems: dialectProblems,
  };
}

// The document's value: fetched through the guard, or the body's, within the size cap.
async function readDocument(
  req: { url?: string; document?: string | Record<string, unknown> },
  deps: ImportOpenApiDeps,
  limits: typeof OPENAPI_IMPORT_LIMITS,
): Promise<unknown> {
  const tooLarge = (bytes: number) =>
    validationFailed(
      `the document is ${bytes} bytes, over the limit of ${formatBytes(limits.maxDocumentBytes)} per import`,
      { limit: limits.maxDocumentBytes, bytes },
    );
  let text: string;
  if (req.url !== undefined) {
    const decision = await checkDestination(req.url, deps.posture, deps.resolver);
    if (decision.verdict === "blocked") {
      throw new DomainError("egress_blocked", decision.message, { rule: decision.rule, hint: decision.hint });
    }
    if (decision.verdict === "unresolved") {
      throw new DomainError("upstream_failed", `could not fetch the document: ${decision.reason}`);
    }
    const fetched = await (deps.fetch ?? fetchDocument)({
      url: req.url,
      posture: deps.posture,
      resolver: deps.resolver,
      maxBytes: limits.maxDocumentBytes,
      timeoutMs: limits.fetchTimeoutMs,
    });
    if (!fetched.ok) {
      if (fetched.kind === "blocked") {
        throw new DomainError("egress_blocked", fetched.message, { rule: fetched.rule, hint: fetched.hint });
      }
      if (fetched.kind === "too-large")
        throw validationFailed(`the document at ${req.url} is too large: ${fetched.error}`);
      throw new DomainError("upstream_failed", `could not fetch the document at ${req.url}: ${fetched.error}`);
    }
    text = fetched.text;
  } else if (typeof req.document === "string") {
    text = req.document;
  } else {
    const bytes = Buffer.byteLength(JSON.stringify(req.document), "utf8");
    if (bytes > limits.maxDocumentBytes) throw tooLarge(bytes);
    return req.document;
  }
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > limits.maxDocumentBytes) throw tooLarge(bytes);
  const parsed = parseDocumentText(text);
  if (!parsed.ok) throw validationFailed(`the document does not parse: ${parsed.reason}`);
  return parsed.value;
}
