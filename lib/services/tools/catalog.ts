/**
 * The catalog: every tool a turn could be offered — shipped code tools plus the
 * stored data tools that still validate. Each process caches it and rebuilds
 * when the catalog version in the database moves (DESIGN D10), so a write in
 * one process is seen by every other without a restart.
 */
import type { Db } from "@/db/database";
import { listToolSources } from "@/db/queries/tools";
import { getCatalogVersion } from "@/db/queries/settings";
import { shippedCodeTools, type CodeTool } from "@/lib/code-tools";
import { validateToolDefinition } from "@/lib/tools";
import { SYSTEM_TOOL_NAMES, type DataToolDefinition } from "@/lib/tools/types";

export type ToolKindName = "code" | "data" | "mcp";

interface EntryBase {
  name: string;
  kind: ToolKindName;
  description: string;
  group: string | null;
  tags: string[];
  editable: boolean;
}

export type CatalogEntry =
  | (EntryBase & { kind: "code"; status: "ok"; code: CodeTool })
  | (EntryBase & { kind: "data" | "mcp"; status: "ok"; definition: DataToolDefinition; version: number })
  | (EntryBase & { kind: "data" | "mcp"; status: "dropped"; problem: string; version: number });

export interface Catalog {
  version: number;
  /** By name: never a plain object, so `__proto__` or `constructor` cannot resolve to anything. */
  entries: Map<string, CatalogEntry>;
}

/** Names no data tool may take: shipped code tools and system tools. */
export function reservedToolNames(): ReadonlySet<string> {
  return new Set([...shippedCodeTools().keys(), ...SYSTEM_TOOL_NAMES]);
}

/** What the last build of a database's catalog made of each stored row, to reuse when the row is unchanged. */
interface Built {
  version: number;
  kind: string;
  group: string | null;
  text: string;
  entry: CatalogEntry;
}

const built = new WeakMap<Db, Map<string, Built>>();

/**
 * Builds the catalog from the database now. A stored row whose version, kind, group and
 * definition text are those of the last build keeps the entry that build validated (the
 * rules do not change within a process), so a rebuild after one write re-validates one
 * tool, not every tool.
 */
export async function buildCatalog(db: Db): Promise<Catalog> {
  const version = await getCatalogVersion(db);
  const entries = new Map<string, CatalogEntry>();
  for (const code of shippedCodeTools().values()) {
    entries.set(code.name, {
      name: code.name,
      kind: "code",
      description: code.description,
      group: code.group,
      tags: [...code.tags],
      editable: false,
      status: "ok",
      code,
    });
  }
  const reserved = reservedToolNames();
  const previous = built.get(db);
  const next = new Map<string, Built>();
  for (const row of await listToolSources(db)) {
    if (entries.has(row.name)) continue; // code tools win; writes refuse this, so only old rows get here
    const last = previous?.get(row.name);
    const same =
      last &&
      last.version === row.version &&
      last.kind === row.kind &&
      last.group === row.group &&
      last.text === row.definition;
    const kept = same
      ? last
      : {
          version: row.version,
          kind: row.kind,
          group: row.group,
          text: row.definition,
          entry: dataEntry(row, reserved),
        };
    entries.set(row.name, kept.entry);
    next.set(row.name, kept);
  }
  built.set(db, next);
  return { version, entries };
}

function dataEntry(
  row: Awaited<ReturnType<typeof listToolSources>>[number],
  reserved: ReadonlySet<string>,
): CatalogEntry {
  let definition: Partial<DataToolDefinition> | null = null;
  try {
    definition = JSON.parse(row.definition) as Partial<DataToolDefinition> | null;
  } catch {
    // validation below reports it
  }
  // Rows stored before the literal-credential rule keep working; doctor lists them.
  const checked = validateToolDefinition(definition, {
    writePath: "api",
    reservedNames: reserved,
    literalCredentials: "allow",
  });
  const base = {
    name: row.name,
    kind: row.kind,
    description: definition?.description ?? "",
    group: row.group,
    tags: Array.isArray(definition?.tags) ? definition.tags : [],
    editable: true,
    version: row.version,
  };
  return checked.ok
    ? { ...base, status: "ok", definition: checked.tool }
    : { ...base, status: "dropped", problem: checked.error };
}

const cache = new Map<Db, Catalog>();
/** A build in progress per database: callers that find the version moved at once share it. */
const building = new Map<Db, Promise<Catalog>>();

/** The catalog, rebuilt only when another write (from any instance) has moved the version. */
export async function getCatalog(db: Db): Promise<Catalog> {
  const cached = cache.get(db);
  if (cached && cached.version === (await getCatalogVersion(db))) return cached;
  let pending = building.get(db);
  if (!pending) {
    pending = buildCatalog(db).finally(() => building.delete(db));
    building.set(db, pending);
  }
  const fresh = await pending;
  cache.set(db, fresh);
  return fresh;
}
