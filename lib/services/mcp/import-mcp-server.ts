/**
 * MCP ingestion (POST /v1/mcp/import, `insika mcp import`, the Studio form):
 * adopt every tool of an HTTP MCP server as a data tool of group
 * `mcp:<name>`. Egress is checked before anything is sent; discovery goes
 * through the SDK client and the guard; the write is one transaction, and
 * nothing is written when the server is refused, down or unreadable.
 */
import type { Db } from "@/db/database";
import type { Principal } from "@/lib/access/principal";
import { recordAudit } from "@/lib/services/audit/record-audit";
import { versionActor } from "@/lib/services/tools/tools";
import { getTool, listToolsInGroup, writeTools, type ToolWrite } from "@/db/queries/tools";
import { DomainError } from "@/lib/errors";
import { checkDestination, type EgressPosture, type Resolver } from "@/lib/egress";
import {
  discoverTools,
  formatBytes,
  MCP_IMPORT_LIMITS,
  mcpGroup,
  toDataTools,
  type ConversionError,
  type DiscoverToolsInput,
  type DiscoverToolsResult,
  type RenamedTool,
} from "@/lib/mcp";
import { redactText } from "@/lib/secrets/redact";
import type { SecretSource } from "@/lib/secrets/secret-source";
import { reservedToolNames } from "@/lib/services/tools/catalog";
import { parseMcpImportBody } from "./parse-mcp-import-body";
import { writeMcpAuth } from "./mcp-import-auth";
import { oauthTokensFor } from "./mcp-oauth-tokens";
import { EgressBlockedError } from "@/lib/egress";
import { errorMessage } from "@/lib/errors";

/** A token for the import, or the import's error: 422 egress_blocked, 502 upstream_failed (redacted). */
async function accessToken(get: () => Promise<string>, redact: (text: string) => string): Promise<string> {
  try {
    return await get();
  } catch (error) {
    if (error instanceof EgressBlockedError)
      throw new DomainError("egress_blocked", error.message, { rule: error.rule, hint: error.hint });
    throw new DomainError("upstream_failed", redact(`could not get an OAuth access token: ${errorMessage(error)}`));
  }
}

export interface ImportMcpDeps {
  posture: EgressPosture;
  secrets: SecretSource;
  resolver?: Resolver;
  /** Replaces discovery (tests). */
  discover?: (input: DiscoverToolsInput) => Promise<DiscoverToolsResult>;
  /** Recorded in each tool's history. */
  source?: "mcp" | "studio";
  /** Discovery deadline in ms (default 30 s). */
  timeoutMs?: number;
}

/** What an import did. `updated` follows the manifest's rule (see below); `unchanged` is the subset not rewritten. */
export interface ImportMcpResult {
  group: string;
  created: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
  errors: ConversionError[];
  renamed: RenamedTool[];
  server: { name: string; version: string } | null;
}

/**
 * Imports (or re-imports) one server. Throws DomainError: 422
 * `validation_failed` for a bad body (a stdio `command`: `only HTTP-transport
 * MCP servers are ingestible`), 422 `egress_blocked` with the guard's message
 * and `{rule, hint}` when the guard refuses the URL (checked before sending,
 * and again for every request and redirect of discovery), 502
 * `upstream_failed` when the server cannot be reached or read, 422
 * `validation_failed` when it is over the import's bounds as a whole (more
 * than 1,000 tools, a response over 4 MiB, over 8 MiB to store; see
 * MCP_IMPORT_LIMITS; a single tool over its bounds is an `errors` entry). In each case
 * nothing is written. Otherwise writes in one transaction: created/updated
 * tools, and the removal of tools of the group the server no longer lists.
 * A name taken by a code tool or by a tool outside the group, and a tool that
 * does not validate, are `errors` entries. Like the manifest, a tool that is
 * already stored unchanged is reported in `updated` (and in `unchanged`),
 * so a re-import of an unchanged server changes nothing and reports
 * created [] removed [].
 */
export async function importMcpServer(
  db: Db,
  actor: Principal,
  body: unknown,
  deps: ImportMcpDeps,
): Promise<ImportMcpResult> {
  const req = parseMcpImportBody(body, deps.secrets);
  const group = mcpGroup(req.name);
  const redact = (text: string) => redactText(text, req.secretValues);
  // Access tokens fetched for this import: redacted like the secrets from anything answered.
  const tokensSeen: string[] = [];
  const redactAlso = (text: string) => redactText(redact(text), tokensSeen);

  const decision = await checkDestination(req.url, deps.posture, deps.resolver);
  if (decision.verdict === "blocked") {
    throw new DomainError("egress_blocked", decision.message, { rule: decision.rule, hint: decision.hint });
  }
  if (decision.verdict === "unresolved") {
    throw new DomainError("upstream_failed", `could not reach the MCP server: ${decision.reason}`);
  }

  const discover = async (headers: Record<string, string>) =>
    (deps.discover ?? discoverTools)({
      url: req.url,
      headers,
      posture: deps.posture,
      resolver: deps.resolver,
      timeoutMs: deps.timeoutMs,
    });
  let discovered: DiscoverToolsResult;
  if (req.auth) {
    // OAuth client credentials: the token is fetched (through the guard) and held in memory only.
    const tokens = oauthTokensFor(
      {
        serverUrl: req.url,
        clientId: req.auth.stored.client_id,
        clientSecret: req.auth.clientSecret,
        ...(req.auth.stored.scope ? { scope: req.auth.stored.scope } : {}),
      },
      deps.posture,
    );
    const token = await accessToken(() => tokens.get(), redact);
    tokensSeen.push(token);
    discovered = await discover({ ...req.resolvedHeaders, Authorization: `Bearer ${token}` });
    if (!discovered.ok && discovered.kind === "failed" && /\b401\b/.test(discovered.error)) {
      const fresh = await accessToken(() => tokens.refresh(), redact);
      tokensSeen.push(fresh);
      discovered = await discover({ ...req.resolvedHeaders, Authorization: `Bearer ${fresh}` });
    }
  } else {
    discovered = await discover(req.resolvedHeaders);
  }
  if (!discovered.ok) {
    if (discovered.kind === "blocked") {
      throw new DomainError("egress_blocked", discovered.message, { rule: discovered.rule, hint: discovered.hint });
    }
    if (discovered.kind === "too-large") {
      throw new DomainError(
        "validation_failed",
        redactAlso(`the MCP server at ${req.url} is too large to import: ${discovered.error}`),
      );
    }
    throw new DomainError(
      "upstream_failed",
      redactAlso(`could not list the tools of the MCP server at ${req.url}: ${discovered.error}`),
    );
  }

  const converted = toDataTools(discovered.tools, {
    instance: req.name,
    url: req.url,
    headers: req.headers,
    secretHeaders: req.secretHeaders,
    reservedNames: reservedToolNames(),
  });
  const errors = converted.errors.map((e) => ({ ...e, error: redactAlso(e.error) }));
  const writes: ToolWrite[] = [];
  for (const { mcpName, definition } of converted.tools) {
    const existing = await getTool(db, definition.name);
    if (existing && existing.group !== group) {
      const owner = existing.group ? `a tool of group '${existing.group}'` : "a data tool outside any group";
      errors.push({
        tool: definition.name,
        mcp_tool: mcpName,
        error: `'${definition.name}' is already ${owner}; it was not overwritten`,
      });
      continue;
    }
    writes.push({ definition, kind: "mcp" });
  }

  const storedBytes = writes.reduce((sum, w) => sum + Buffer.byteLength(JSON.stringify(w.definition), "utf8"), 0);
  if (storedBytes > MCP_IMPORT_LIMITS.maxStoredBytes) {
    throw new DomainError(
      "validation_failed",
      `the MCP server at ${redactAlso(req.url)} is too large to import: its ${writes.length} tools take ${storedBytes} bytes, over the limit of ${formatBytes(MCP_IMPORT_LIMITS.maxStoredBytes)} per import`,
      { limit: MCP_IMPORT_LIMITS.maxStoredBytes, bytes: storedBytes },
    );
  }

  // A tool the server still lists but that failed this time keeps its stored version.
  const written = new Set(writes.map((w) => w.definition.name));
  const failed = new Set(errors.map((e) => e.mcp_tool));
  const remove = (await listToolsInGroup(db, group))
    .filter((row) => !written.has(row.name) && !failed.has(row.definition?.request?.mcp_tool ?? ""))
    .map((row) => row.name);

  const outcome = await db.transaction(async (tx) => {
    const done = await writeTools(tx, { writes, remove, source: deps.source ?? "mcp", actor: versionActor(actor) });
    await writeMcpAuth(tx, req.name, req.auth?.stored ?? null);
    await recordAudit(tx, actor, {
      action: "mcp.import",
      target: `mcp:${req.name}`,
      summary: {
        url: redactAlso(req.url),
        created: done.created,
        updated: done.updated,
        removed: done.removed,
        errors: errors.length,
        auth: req.auth ? req.auth.stored.type : "headers",
      },
    });
    return done;
  });
  return {
    group,
    created: outcome.created,
    updated: [...outcome.updated, ...outcome.unchanged].sort(),
    unchanged: outcome.unchanged,
    removed: outcome.removed,
    errors,
    renamed: converted.renamed,
    server: discovered.server,
  };
}
