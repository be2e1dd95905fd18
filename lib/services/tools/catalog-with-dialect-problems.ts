/**
 * The catalog as GET /v1/tools lists it, each tool that some agent's
 * provider would reject carrying `dialect_problems` (which agent, which
 * dialect, the path and the fix hint; see services/agents/dialect-problems).
 */
import type { Db } from "@/db/database";
import { listDialectProblems } from "@/lib/services/agents/dialect-problems";
import { listCatalog } from "./tools";

export async function listCatalogWithDialectProblems(db: Db) {
  const problems = await listDialectProblems(db);
  const byTool = new Map<string, { agent: string; dialect: string; path: string; message: string }[]>();
  for (const p of problems) {
    const list = byTool.get(p.tool) ?? [];
    list.push({ agent: p.agent, dialect: p.dialect, path: p.path, message: p.message });
    byTool.set(p.tool, list);
  }
  return (await listCatalog(db)).map((entry) => {
    const found = byTool.get(entry.name);
    return found ? { ...entry, dialect_problems: found } : entry;
  });
}
