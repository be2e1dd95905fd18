/**
 * Read model for the Studio's MCP page: the imported instances (catalog groups
 * `mcp:<name>`), each with its tool counts and the server URL and headers its
 * tools call, so the page can offer a re-import with the same settings.
 */
import type { Db } from "@/db/database";
import { getSetting } from "@/db/queries/settings";
import { listTools } from "@/db/queries/tools";
import { mcpAuthKey, parseStoredMcpAuth } from "./mcp-import-auth";
import { getCatalog } from "@/lib/services/tools/catalog";

export interface McpInstanceRow {
  name: string;
  group: string;
  url: string;
  /** As stored: `{{secret.*}}` references kept, never resolved here. */
  headers: Record<string, string>;
  tools: number;
  dropped: number;
  toolNames: string[];
  updated_at: string;
  /**
   * How its tools authenticate: OAuth client credentials (with the client id and the secret's
   * name, never a value), headers (static, maybe `{{secret.*}}`), or none.
   */
  auth:
    | { kind: "oauth_client_credentials"; client_id: string; client_secret: string; scope: string | null }
    | { kind: "headers" | "none" };
}

const PREFIX = "mcp:";

/** Every imported MCP instance, by name. */
export async function listMcpInstances(db: Db): Promise<McpInstanceRow[]> {
  const catalog = await getCatalog(db);
  const byGroup = new Map<string, McpInstanceRow>();
  for (const row of await listTools(db)) {
    if (!row.group?.startsWith(PREFIX)) continue;
    const request = row.definition?.request ?? {};
    let instance = byGroup.get(row.group);
    if (!instance) {
      instance = {
        name: row.group.slice(PREFIX.length),
        group: row.group,
        url: typeof request.url === "string" ? request.url : "",
        headers: { ...(request.headers ?? {}) },
        tools: 0,
        dropped: 0,
        toolNames: [],
        updated_at: new Date(row.updatedAt).toISOString(),
        auth: { kind: "none" },
      };
      byGroup.set(row.group, instance);
    }
    const entry = catalog.entries.get(row.name);
    if (entry?.status === "ok" && entry.group === row.group) instance.tools += 1;
    else instance.dropped += 1;
    instance.toolNames.push(row.name);
    const updated = new Date(row.updatedAt).toISOString();
    if (updated > instance.updated_at) instance.updated_at = updated;
  }
  for (const instance of byGroup.values()) {
    const oauth = parseStoredMcpAuth(await getSetting(db, mcpAuthKey(instance.name)));
    instance.auth = oauth
      ? {
          kind: "oauth_client_credentials",
          client_id: oauth.client_id,
          client_secret: `{{secret.${oauth.client_secret_name}}}`,
          scope: oauth.scope ?? null,
        }
      : { kind: Object.keys(instance.headers).length > 0 ? "headers" : "none" };
  }
  return [...byGroup.values()].sort((a, b) => a.name.localeCompare(b.name));
}
