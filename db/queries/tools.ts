import { and, asc, desc, eq, lt, notInArray, sql } from "drizzle-orm";
import type { DataToolDefinition } from "@/lib/tools/types";
import type { Db } from "../database";
import type { ToolRow, ToolVersionRow } from "../schema";
import { jsonOrNull, param, rawParam } from "./prepared";
import { bumpCatalogVersion } from "./settings";

/** How many versions of each tool are kept (the spec asks for at least 20). */
export const KEPT_VERSIONS = 50;

export type ToolKind = ToolRow["kind"];

/** Held by every catalog write (Db.lock). */
const CATALOG_LOCK = "insika:catalog";

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
export function listTools(db: Db): Promise<ToolRow[]> {
  const { tools } = db.t;
  return db.all(db.orm.select().from(tools).orderBy(asc(tools.name)));
}

/**
 * Every stored data tool, by name, with its definition as stored (JSON text, not
 * parsed): the catalog compares the text and parses only the tools that changed.
 */
export async function listToolSources(
  db: Db,
): Promise<{ name: string; kind: ToolKind; group: string | null; version: number; definition: string }[]> {
  const query = db.prepared("tools.sources", (o, { tools }) =>
    o
      .select({
        name: tools.name,
        kind: tools.kind,
        group: tools.group,
        version: tools.version,
        definition: sql<string>`${tools.definition}`,
      })
      .from(tools)
      .orderBy(asc(tools.name)),
  );
  // Arrays, not Drizzle's mapped rows: at 10,000 tools the per-field mapping costs more than the read.
  return ((await query.values()) as [string, ToolKind, string | null, number, string][]).map(
    ([name, kind, group, version, definition]) => ({ name, kind, group, version, definition }),
  );
}

/** One stored data tool, or undefined. */
export function getTool(db: Db, name: string): Promise<ToolRow | undefined> {
  return db
    .prepared("tools.get", (o, { tools }) =>
      o
        .select()
        .from(tools)
        .where(eq(tools.name, param("name"))),
    )
    .get({ name });
}

/** The stored tools of one group (MCP instances use `mcp:<name>`). */
export function listToolsInGroup(db: Db, group: string): Promise<ToolRow[]> {
  const { tools } = db.t;
  return db.all(db.orm.select().from(tools).where(eq(tools.group, group)).orderBy(asc(tools.name)));
}

/**
 * Writes several tools in one transaction: each gets a new version (kept in
 * tool_versions) unless its definition is unchanged; the catalog version is
 * bumped once when anything changed. `remove` names tools to delete in the same transaction.
 */
export function writeTools(
  db: Db,
  params: { writes: ToolWrite[]; remove?: string[]; source: string; actor?: VersionActor; now?: number },
): Promise<WriteOutcome & { removed: string[] }> {
  const now = params.now ?? Date.now();
  return db.transaction(async (tx) => {
    const { tools } = tx.t;
    // One catalog writer at a time across the fleet: two instances writing one name would
    // both see it absent and both insert.
    await tx.lock(CATALOG_LOCK);
    // Prepared: a manifest of 1,000 tools runs ~5,000 statements, and building each with
    // Drizzle would cost more than running it.
    const insert = tx.prepared("tools.insert", (o, { tools }) =>
      o.insert(tools).values({
        name: param("name"),
        kind: param("kind"),
        definition: param("definition"),
        group: param("group"),
        version: param("version"),
        createdAt: param("now"),
        updatedAt: param("now"),
      }),
    );
    const out = {
      created: [] as string[],
      updated: [] as string[],
      unchanged: [] as string[],
      removed: [] as string[],
    };
    for (const { definition, kind } of params.writes) {
      const name = definition.name;
      const existing = await getTool(tx, name);
      if (existing && existing.kind === kind && sameJson(existing.definition, definition)) {
        out.unchanged.push(name);
        continue;
      }
      const version = existing ? existing.version + 1 : await nextVersion(tx, name);
      const row = { kind, definition, group: definition.group, version, updatedAt: now };
      if (existing) await tx.run(tx.orm.update(tools).set(row).where(eq(tools.name, name)));
      else await insert.run({ name, kind, definition, group: definition.group, version, now });
      await recordVersion(tx, {
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
      const existing = await tx.get(tx.orm.select().from(tools).where(eq(tools.name, name)));
      if (!existing) continue;
      await tx.run(tx.orm.delete(tools).where(eq(tools.name, name)));
      await recordVersion(tx, {
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
    const catalogVersion = changed ? await bumpCatalogVersion(tx, now) : -1;
    return { ...out, catalogVersion };
  });
}

/** Deletes one tool (recording the delete in its history); false when absent. */
export async function deleteTool(
  db: Db,
  params: { name: string; source: string; actor?: VersionActor; now?: number },
): Promise<boolean> {
  const outcome = await writeTools(db, {
    writes: [],
    remove: [params.name],
    source: params.source,
    actor: params.actor,
    now: params.now,
  });
  return outcome.removed.length === 1;
}

/** The history of a tool, newest first. */
export function listToolVersions(db: Db, name: string): Promise<ToolVersionRow[]> {
  const { toolVersions } = db.t;
  return db.all(
    db.orm.select().from(toolVersions).where(eq(toolVersions.name, name)).orderBy(desc(toolVersions.version)),
  );
}

/** One version of a tool's history. */
export function getToolVersion(db: Db, name: string, version: number): Promise<ToolVersionRow | undefined> {
  const { toolVersions } = db.t;
  return db.get(
    db.orm
      .select()
      .from(toolVersions)
      .where(and(eq(toolVersions.name, name), eq(toolVersions.version, version))),
  );
}

async function nextVersion(db: Db, name: string): Promise<number> {
  const last = await db
    .prepared("tool_versions.last", (o, { toolVersions }) =>
      o
        .select({ version: toolVersions.version })
        .from(toolVersions)
        .where(eq(toolVersions.name, param("name")))
        .orderBy(desc(toolVersions.version))
        .limit(1),
    )
    .get({ name });
  return (last?.version ?? 0) + 1;
}

/** Who wrote a version: the key and its name at the time. */
export interface VersionActor {
  keyId: string;
  name: string;
}

async function recordVersion(
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
): Promise<void> {
  const { toolVersions } = db.t;
  const insert = db.prepared("tool_versions.insert", (o, { toolVersions }) =>
    o.insert(toolVersions).values({
      name: param("name"),
      version: param("version"),
      change: param("change"),
      source: param("source"),
      definition: rawParam("definition"),
      createdAt: param("now"),
      actorKeyId: rawParam("actorKeyId"),
      actorName: rawParam("actorName"),
    }),
  );
  const { actor, ...rest } = v;
  await insert.run({
    ...rest,
    definition: jsonOrNull(v.definition),
    actorKeyId: actor?.keyId ?? null,
    actorName: actor?.name ?? null,
  });
  const newest = db.prepared("tool_versions.newest", (o, { toolVersions }) =>
    o
      .select({ id: toolVersions.id })
      .from(toolVersions)
      .where(eq(toolVersions.name, param("name")))
      .orderBy(desc(toolVersions.version))
      .limit(KEPT_VERSIONS),
  );
  const keep = (await newest.all({ name: v.name })).map((r) => r.id);
  const oldest = keep.at(-1);
  if (keep.length === KEPT_VERSIONS && oldest !== undefined) {
    await db.run(
      db.orm
        .delete(toolVersions)
        .where(and(eq(toolVersions.name, v.name), lt(toolVersions.id, oldest), notInArray(toolVersions.id, keep))),
    );
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
