/** The OpenAPI page's read model: each import (group `openapi:<name>`) and how many tools it holds. */
import type { Db } from "@/db/client";
import { listTools } from "@/db/queries/tools";

export interface OpenApiImportRow {
  name: string;
  group: string;
  tools: number;
}

export async function listOpenApiImports(db: Db): Promise<OpenApiImportRow[]> {
  const counts = new Map<string, number>();
  for (const row of await listTools(db)) {
    if (row.group?.startsWith("openapi:")) counts.set(row.group, (counts.get(row.group) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([group, tools]) => ({ name: group.slice(8), group, tools }));
}
