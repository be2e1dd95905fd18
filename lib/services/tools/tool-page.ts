/**
 * Read models for the Studio's tool pages: the catalog as a light array (the
 * panel filters it in the browser, 5,000 rows included) and, per tool, which
 * agents are offered it and why.
 */
import type { Db } from "@/db/database";
import { listAgents } from "@/db/queries/agents";
import type { TurnContext } from "@/lib/tools/types";
import { agentToolExposure } from "@/lib/services/agents/agents";
import { getCatalog } from "./catalog";
import { getSystemTool, listSystemTools, systemToolExposure } from "./system-tool-catalog";

export interface CatalogRow {
  name: string;
  kind: "code" | "data" | "mcp";
  group: string | null;
  tags: string[];
  status: "ok" | "dropped";
  /** Clipped: the row shows one line. */
  description: string;
  problem?: string;
  /** System tools only: when an agent is offered it. */
  offered_when?: string;
}

const DESCRIPTION_CLIP = 140;
const clip = (text: string) => (text.length > DESCRIPTION_CLIP ? `${text.slice(0, DESCRIPTION_CLIP)}…` : text);

/** Every catalog entry and every system tool, compact, by name. */
export async function listCatalogRows(db: Db): Promise<CatalogRow[]> {
  const rows: CatalogRow[] = [...(await getCatalog(db)).entries.values()].map((e) => ({
    name: e.name,
    kind: e.kind,
    group: e.group,
    tags: e.tags,
    status: e.status,
    description: clip(e.description),
    ...(e.status === "dropped" ? { problem: e.problem } : {}),
  }));
  for (const t of listSystemTools()) {
    rows.push({
      name: t.name,
      kind: "code",
      group: null,
      tags: ["system"],
      status: "ok",
      description: clip(t.description),
      offered_when: t.offeredWhen,
    });
  }
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export interface AgentExposureRow {
  agent_id: string;
  agent_name: string;
  status: "offered" | "deferred" | "denied" | "not_allowed" | "unavailable";
  reason: string;
  has_allowlist: boolean;
}

/** For one tool, how every agent exposes it. */
export async function toolExposureByAgent(db: Db, tool: string): Promise<AgentExposureRow[]> {
  const entry = (await getCatalog(db)).entries.get(tool);
  const system = getSystemTool(tool);
  const rows: AgentExposureRow[] = [];
  for (const agent of await listAgents(db)) {
    const base = {
      agent_id: agent.id,
      agent_name: agent.name,
      has_allowlist: agent.toolsAllow !== null || agent.toolsAllowGroups !== null,
    };
    if (system) rows.push({ ...base, ...(await systemToolExposure(db, agent, system)) });
    else if (entry?.status !== "ok")
      rows.push({ ...base, status: "unavailable", reason: "the tool is not usable (dropped or unknown)" });
    else {
      const exposure = (await agentToolExposure(db, agent)).exposure.get(tool);
      rows.push({ ...base, status: exposure?.status ?? "not_allowed", reason: exposure?.reason ?? "" });
    }
  }
  return rows;
}

/**
 * The context "Try it" starts from: as the first agent that is offered the
 * tool (else the first agent) would send it, so {{ctx.*}} placeholders resolve.
 */
export async function tryItContext(db: Db, tool: string): Promise<TurnContext> {
  const rows = await toolExposureByAgent(db, tool);
  const pick = rows.find((r) => r.status === "offered" || r.status === "deferred") ?? rows[0];
  const agent = pick ? (await listAgents(db)).find((a) => a.id === pick.agent_id) : undefined;
  const ctx: TurnContext = { chat_id: "studio-try-it", tenant: "studio-try-it" };
  if (agent) ctx.agent_id = agent.id;
  if (agent?.metadata.store_id) ctx.store_id = agent.metadata.store_id;
  return ctx;
}
