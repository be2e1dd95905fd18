/**
 * Tool use cases for the API, the Studio and the CLI: read the catalog, write
 * or delete one data tool, read its history. Every write validates first and
 * writes in one transaction, so a refusal leaves nothing behind.
 */
import type { Db } from "@/db/database";
import type { Principal } from "@/lib/access/principal";
import { deleteTool, getTool, getToolVersion, listToolVersions, writeTools } from "@/db/queries/tools";
import { DomainError, notFound, validationFailed } from "@/lib/errors";
import { validateToolDefinition } from "@/lib/tools";
import type { DataToolDefinition } from "@/lib/tools/types";
import { getCatalog, reservedToolNames, type CatalogEntry } from "./catalog";
import { getSystemTool, listSystemTools, type SystemToolInfo } from "./system-tool-catalog";
import { recordAudit } from "@/lib/services/audit/record-audit";

/** The actor of a tool version: who wrote it. */
export const versionActor = (actor: Principal) => ({ keyId: actor.keyId, name: actor.keyName });

export type WriteSource = "api" | "studio" | "manifest" | "config" | "mcp" | "seed" | "restore";

/** The catalog as the API lists it: code, data and MCP tools, then the system tools. */
export async function listCatalog(db: Db) {
  const catalog = await getCatalog(db);
  return [...[...catalog.entries.values()].map(summarize), ...listSystemTools().map(summarizeSystemTool)];
}

/** A system tool as the catalog lists it: a read-only code tool, with when an agent is offered it. */
export function summarizeSystemTool(tool: SystemToolInfo) {
  return {
    name: tool.name,
    kind: "code" as const,
    description: tool.description,
    group: null,
    tags: ["system"],
    editable: false,
    status: "ok" as const,
    system: true,
    offered_when: tool.offeredWhen,
  };
}

export function summarize(entry: CatalogEntry) {
  return {
    name: entry.name,
    kind: entry.kind,
    description: entry.description,
    group: entry.group,
    tags: entry.tags,
    editable: entry.editable,
    status: entry.status,
    ...(entry.status === "dropped" ? { problem: entry.problem } : {}),
  };
}

/** A data tool's stored definition plus version and updated_at; 404 when absent. */
export async function getToolDetail(db: Db, name: string) {
  const system = getSystemTool(name);
  if (system) return { ...summarizeSystemTool(system), parameters: system.parameters, side_effect: system.sideEffect };
  const row = await getTool(db, name);
  if (!row) {
    const entry = (await getCatalog(db)).entries.get(name);
    if (entry?.kind === "code") {
      return { ...summarize(entry), parameters: entry.code.parameters, side_effect: entry.code.sideEffect };
    }
    throw notFound(`tool '${name}'`);
  }
  return { ...row.definition, kind: row.kind, version: row.version, updated_at: new Date(row.updatedAt).toISOString() };
}

/**
 * Creates or replaces one data tool from a whole definition. A body `name`
 * different from the path is refused; so is a name a code tool owns.
 */
export async function putTool(db: Db, actor: Principal, name: string, body: unknown, source: WriteSource = "api") {
  if (
    body &&
    typeof body === "object" &&
    !Array.isArray(body) &&
    "name" in body &&
    (body as { name: unknown }).name !== name
  ) {
    const bodyName = (body as { name: unknown }).name;
    // Not String(): a JSON object can carry a `toString` member that is no function.
    const shown =
      typeof bodyName === "string"
        ? `'${bodyName.slice(0, 100)}'`
        : `of type ${bodyName === null ? "null" : typeof bodyName}`;
    throw validationFailed(`body name ${shown} differs from the path name '${name}'`);
  }
  const input = body && typeof body === "object" && !Array.isArray(body) ? { ...body, name } : body;
  const checked = validateToolDefinition(input, { writePath: "api", reservedNames: reservedToolNames() });
  if (!checked.ok) throw validationFailed(checked.error);
  const existing = await getTool(db, name);
  const kind = existing?.kind ?? (checked.tool.request.protocol === "mcp" ? "mcp" : "data");
  const outcome = await db.transaction(async (tx) => {
    const written = await writeTools(tx, {
      writes: [{ definition: checked.tool, kind }],
      source,
      actor: versionActor(actor),
    });
    const change = written.created.length ? "created" : written.updated.length ? "updated" : "unchanged";
    if (change !== "unchanged")
      await recordAudit(tx, actor, {
        action: source === "restore" ? "tool.restore" : "tool.put",
        target: `tool:${name}`,
        summary: { change, source },
      });
    return written;
  });
  return { created: outcome.created.length === 1, tool: await getToolDetail(db, name) };
}

/** Deletes a data tool: 404 when absent, 409 for a code or system tool. */
export async function removeTool(db: Db, actor: Principal, name: string, source: WriteSource = "api"): Promise<void> {
  if (getSystemTool(name)) {
    throw new DomainError(
      "conflict",
      `'${name}' is a system tool: it ships in the build, is offered when its feature is configured for an agent, and can only be denied`,
    );
  }
  if ((await getCatalog(db)).entries.get(name)?.kind === "code") {
    throw new DomainError(
      "conflict",
      `'${name}' is a code tool: it ships in the build and can only be allowed or denied`,
    );
  }
  await db.transaction(async (tx) => {
    if (!(await deleteTool(tx, { name, source, actor: versionActor(actor) }))) throw notFound(`tool '${name}'`);
    await recordAudit(tx, actor, { action: "tool.delete", target: `tool:${name}`, summary: { source } });
  });
}

/** Earlier versions of a tool, newest first; 404 when the tool never existed. */
export async function listToolHistory(db: Db, name: string) {
  const versions = await listToolVersions(db, name);
  if (versions.length === 0) throw notFound(`tool '${name}'`);
  return versions.map((v) => ({
    version: v.version,
    change: v.change,
    source: v.source,
    created_at: new Date(v.createdAt).toISOString(),
    by: v.actorKeyId === null ? null : { key_id: v.actorKeyId, name: v.actorName },
    definition: v.definition,
  }));
}

/** Restores an earlier version as a new version (validated again under today's rules). */
export async function restoreToolVersion(db: Db, actor: Principal, name: string, version: number) {
  const old = await getToolVersion(db, name, version);
  if (!old?.definition) throw notFound(`version ${version} of tool '${name}'`);
  return putTool(db, actor, name, old.definition satisfies DataToolDefinition, "restore");
}
