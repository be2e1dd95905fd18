/**
 * POST /v1/tools/manifest: many tools at once. A malformed tool becomes an
 * `errors[]` entry and the others still land; only a structural problem (not
 * an object, `tools` not a list, `defaults` not an object) fails the request.
 * `{{env.*}}` is substituted here and nowhere else (DESIGN D3).
 */
import type { Db } from "@/db/database";
import type { Principal } from "@/lib/access/principal";
import { recordAudit } from "@/lib/services/audit/record-audit";
import { versionActor } from "./tools";
import { getTool, writeTools, type ToolWrite } from "@/db/queries/tools";
import { DomainError, validationFailed } from "@/lib/errors";
import type { SecretSource } from "@/lib/secrets/secret-source";
import { validateToolDefinition } from "@/lib/tools";
import { reservedToolNames } from "./catalog";

/**
 * The most tools one manifest may hold. Sized for the catalog's largest goal
 * (10,000 tools: ingest, rebuild and tool_search are benchmarked there); a
 * bigger toolset is split across manifests, each still one transaction.
 */
export const MAX_MANIFEST_TOOLS = 10_000;

export interface ManifestResult {
  version: unknown;
  created: string[];
  updated: string[];
  errors: { index: number; tool: string | null; error: string }[];
}

export interface ManifestDeps {
  env: Record<string, string | undefined>;
  secrets: SecretSource;
  source?: "manifest" | "config" | "seed";
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Validates every tool, writes the valid ones in one transaction, reports the rest. */
export async function applyManifest(
  db: Db,
  actor: Principal,
  body: unknown,
  deps: ManifestDeps,
): Promise<ManifestResult> {
  if (!isObject(body)) throw validationFailed("manifest must be a JSON object with a `tools` list");
  if (!Array.isArray(body.tools)) throw validationFailed("manifest `tools` must be a list");
  if (body.tools.length > MAX_MANIFEST_TOOLS) {
    throw new DomainError(
      "payload_too_large",
      `manifest \`tools\` has ${body.tools.length} tools; at most ${MAX_MANIFEST_TOOLS} are accepted in one manifest (split it): nothing was written`,
      { limit: MAX_MANIFEST_TOOLS, count: body.tools.length },
    );
  }
  if (body.defaults !== undefined && !isObject(body.defaults))
    throw validationFailed("manifest `defaults` must be an object");
  const defaults = (body.defaults ?? {}) as Record<string, unknown>;
  const reserved = reservedToolNames();
  const errors: ManifestResult["errors"] = [];
  const writes: ToolWrite[] = [];
  const seen = new Set<string>();

  for (const [index, raw] of body.tools.entries()) {
    const name = isObject(raw) && typeof raw.name === "string" ? raw.name : null;
    if (name !== null && seen.has(name)) {
      errors.push({ index, tool: name, error: `duplicate tool name '${name}' in this manifest` });
      continue;
    }
    const checked = validateToolDefinition(isObject(raw) ? withDefaults(defaults, raw) : raw, {
      writePath: "manifest",
      env: deps.env,
      isSecretProvisioned: (secret) => deps.secrets.read(secret) !== undefined,
      reservedNames: reserved,
    });
    if (!checked.ok) {
      errors.push({ index, tool: name, error: checked.error });
      continue;
    }
    seen.add(checked.tool.name);
    const existing = await getTool(db, checked.tool.name);
    if (existing?.kind === "mcp") {
      errors.push({
        index,
        tool: name,
        error: `'${checked.tool.name}' belongs to ${existing.group ?? "an MCP import"}: re-import it instead`,
      });
      continue;
    }
    writes.push({ definition: checked.tool, kind: "data" });
  }

  const outcome = await db.transaction(async (tx) => {
    const written = await writeTools(tx, { writes, source: deps.source ?? "manifest", actor: versionActor(actor) });
    if (written.created.length + written.updated.length > 0) {
      await recordAudit(tx, actor, {
        action: "manifest.apply",
        target: "manifest",
        summary: {
          created: written.created,
          updated: written.updated,
          unchanged: written.unchanged.length,
          errors: errors.length,
        },
      });
    }
    return written;
  });
  return {
    version: body.version ?? 1,
    created: outcome.created,
    // Re-posting a tool unchanged still reports it as updated: it exists and matches the manifest.
    updated: [...outcome.updated, ...outcome.unchanged],
    errors,
  };
}

/** Tool fields override defaults; `request` merges one level down (headers and query key by key). */
function withDefaults(defaults: Record<string, unknown>, tool: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...defaults, ...tool };
  if (isObject(defaults.request) && isObject(tool.request)) {
    const d = defaults.request;
    const t = tool.request;
    merged.request = {
      ...d,
      ...t,
      ...(isObject(d.headers) || isObject(t.headers)
        ? { headers: { ...(d.headers as object), ...(t.headers as object) } }
        : {}),
      ...(isObject(d.query) || isObject(t.query) ? { query: { ...(d.query as object), ...(t.query as object) } } : {}),
    };
  } else if (isObject(defaults.request) && tool.request === undefined) {
    merged.request = defaults.request;
  }
  return merged;
}
