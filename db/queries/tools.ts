import { and, asc, desc, eq, lt, notInArray, sql } from "drizzle-orm";
import type { DataToolDefinition } from "@/lib/tools/types";
import type { Db } from "../client";
import { tools, toolVersions, type ToolRow, type ToolVersionRow } from "../schema";
import { jsonOrNull, param, prepared, rawParam } from "./prepared";
import { bumpCatalogVersion } from "./settings";

/** How many versions of each tool are kept (the spec asks for at least 20). */
export const KEPT_VERSIONS = 50;

export type ToolKind = ToolRow["kind"];

export interface ToolWrite {
  definition: DataToolDefinition;
  kind: ToolKind;
}

export interface WriteOutcome {
  created: string[];
  updated: string[];
  unchanged: string[];
  catalogVersion: number;
}

/** Every stored data tool, by name. */
export function listTools(db: Db): ToolRow[] {
  return db.select().from(tools).orderBy(asc(tools.name)).all();
}

/**
 * Every stored data tool, by name, with its definition as stored (JSON text, not
 * parsed): the catalog compares the text and parses only the tools that changed.
 */
export function listToolSources(
  db: Db,
): { name: string; kind: ToolKind; group: string | null; version: number; definition: string }[] {
  const query = prepared(db, "tools.sources", (d) =>
    d
      .select({
        name: tools.name,
        kind: tools.kind,
        group: tools.group,
        version: tools.version,
        definition: sql<string>`${tools.definition}`,
      })
      .from(tools)
      .orderBy(asc(tools.name))
      .prepare(),
  );
  // Arrays, not Drizzle's mapped rows: at 10,000 tools the per-field mapping costs more than the read.
  return (query.values() as [string, ToolKind, string | null, number, string][]).map(
    ([name, kind, group, version, definition]) => ({ name, kind, group, version, definition }),
  );
}

/** One stored data tool, or undefined. */
export function getTool(db: Db, name: string): ToolRow | undefined {
  return prepared(db, "tools.get", (d) =>
    d
      .select()
      .from(tools)
      .where(eq(tools.name, param("name")))
      .prepare(),
  ).get({ name });
}

/** The stored tools of one group (MCP instances use `mcp:<name>`). */
export function listToolsInGroup(db: Db, group: string): ToolRow[] {
  return db.select().from(tools).where(eq(tools.group, group)).orderBy(asc(tools.name)).all();
}

/**
 * Writes several tools in one transaction: each gets a new version (kept in
 * tool_versions) unless its definition is unchanged; the catalog version is
 * bumped once when anything changed. `remove` names tools to delete in the same transaction.
 */
export function writeTools(
  db: Db,
  params: { writes: ToolWrite[]; remove?: string[]; source: string; actor?: VersionActor; now?: number },
): WriteOutcome & { removed: string[] } {
  const now = params.now ?? Date.now();
  // Prepared statements of `db` run inside `tx` (one connection): a manifest of 1,000 tools
  // runs ~5,000 of them, and building each with Drizzle would cost more than running it.
  const insert = prepared(db, "tools.insert", (d) =>
    d
      .insert(tools)
      .values({
        name: param("name"),
        kind: param("kind"),
        definition: param("definition"),
        group: param("group"),
        version: param("version"),
        createdAt: param("now"),
        updatedAt: param("now"),
      })
      .prepare(),
  );
  return db.transaction((tx) => {
    const out = {
      created: [] as string[],
      updated: [] as string[],
      unchanged: [] as string[],
      removed: [] as string[],
    };
    for (const { definition, kind } of params.writes) {
      const name = definition.name;
      const existing = getTool(db, name);
      if (existing && existing.kind === kind && sameJson(existing.definition, definition)) {
        out.unchanged.push(name);
        continue;
      }
      const version = existing ? existing.version + 1 : nextVersion(db, name);
      const row = { kind, definition, group: definition.group, version, updatedAt: now };
      if (existing) tx.update(tools).set(row).where(eq(tools.name, name)).run();
      else insert.run({ name, kind, definition, group: definition.group, version, now });
      recordVersion(db, {
        name,
        version,
        change: existing ? "update" : "create",
        source: params.source,
        actor: params.actor,
        definition,
        now,
      });
      (existing ? out.updated : out.created).push(name);
    }
    for (const name of params.remove ?? []) {
      const existing = tx.select().from(tools).where(eq(tools.name, name)).get();
      if (!existing) continue;
      tx.delete(tools).where(eq(tools.name, name)).run();
      recordVersion(db, {
        name,
        version: existing.version + 1,
        change: "delete",
        source: params.source,
        actor: params.actor,
        definition: null,
        now,
      });
      out.removed.push(name);
    }
    const changed = out.created.length + out.updated.length + out.removed.length > 0;
    const catalogVersion = changed ? bumpCatalogVersion(tx, now) : -1;
    return { ...out, catalogVersion };
  });
}

/** Deletes one tool (recording the delete in its history); false when absent. */
export function deleteTool(
  db: Db,
  params: { name: string; source: string; actor?: VersionActor; now?: number },
): boolean {
  return (
    writeTools(db, { writes: [], remove: [params.name], source: params.source, actor: params.actor, now: params.now })
      .removed.length === 1
  );
}

/** The history of a tool, newest first. */
export function listToolVersions(db: Db, name: string): ToolVersionRow[] {
  return db.select().from(toolVersions).where(eq(toolVersions.name, name)).orderBy(desc(toolVersions.version)).all();
}

/** One version of a tool's history. */
export function getToolVersion(db: Db, name: string, version: number): ToolVersionRow | undefined {
  return db
    .select()
    .from(toolVersions)
    .where(and(eq(toolVersions.name, name), eq(toolVersions.version, version)))
    .get();
}

function nextVersion(db: Db, name: string): number {
  const last = prepared(db, "tool_versions.last", (d) =>
    d
      .select({ version: toolVersions.version })
      .from(toolVersions)
      .where(eq(toolVersions.name, param("name")))
      .orderBy(desc(toolVersions.version))
      .limit(1)
      .prepare(),
  ).get({ name });
  return (last?.version ?? 0) + 1;
}

/** Who wrote a version: the key and its name at the time. */
export interface VersionActor {
  keyId: string;
  name: string;
}

function recordVersion(
  db: Db,
  v: {
    name: string;
    version: number;
    change: ToolVersionRow["change"];
    source: string;
    actor?: VersionActor | undefined;
    definition: DataToolDefinition | null;
    now: number;
  },
): void {
  const insert = prepared(db, "tool_versions.insert", (d) =>
    d
      .insert(toolVersions)
      .values({
        name: param("name"),
        version: param("version"),
        change: param("change"),
        source: param("source"),
        definition: rawParam("definition"),
        createdAt: param("now"),
        actorKeyId: rawParam("actorKeyId"),
        actorName: rawParam("actorName"),
      })
      .prepare(),
  );
  const { actor, ...rest } = v;
  insert.run({
    ...rest,
    definition: jsonOrNull(v.definition),
    actorKeyId: actor?.keyId ?? null,
    actorName: actor?.name ?? null,
  });
  const newest = prepared(db, "tool_versions.newest", (d) =>
    d
      .select({ id: toolVersions.id })
      .from(toolVersions)
      .where(eq(toolVersions.name, param("name")))
      .orderBy(desc(toolVersions.version))
      .limit(KEPT_VERSIONS)
      .prepare(),
  );
  const keep = newest.all({ name: v.name }).map((r) => r.id);
  const oldest = keep.at(-1);
  if (keep.length === KEPT_VERSIONS && oldest !== undefined) {
    db.delete(toolVersions)
      .where(and(eq(toolVersions.name, v.name), lt(toolVersions.id, oldest), notInArray(toolVersions.id, keep)))
      .run();
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
