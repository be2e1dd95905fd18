/** Read models for the Studio's agent pages. */
import type { Db } from "@/db/client";
import { getAgent, listAgents } from "@/db/queries/agents";
import { agentBody } from "./agents";
import { agentToolExposure } from "./agents";
import { getCatalog } from "@/lib/services/tools/catalog";

/** Every agent with the size of what its turns are offered. */
export function listAgentSummaries(db: Db) {
  return listAgents(db).map((a) => {
    const { offered, deferred, denied } = agentToolExposure(db, a);
    return {
      id: a.id,
      name: a.name,
      provider: a.model.provider,
      model: a.model.model,
      allTools: a.toolsAllow === null && a.toolsAllowGroups === null,
      offered: offered.length,
      deferred: deferred.length,
      denied: denied.length,
    };
  });
}

/** One agent for its editor: the PUT body, its policy, and the usable catalog tools; undefined when absent. */
export function getAgentEditor(db: Db, id: string) {
  const row = getAgent(db, id);
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    model: row.model,
    version: row.updatedAt,
    body: agentBody(row),
    policy: {
      tools_allow: row.toolsAllow,
      tools_deny: row.toolsDeny,
      tools_allow_groups: row.toolsAllowGroups,
      tools_deferred: row.toolsDeferred,
      approvals: row.approvals,
    },
    tools: [...getCatalog(db).entries.values()]
      .filter((e) => e.status === "ok")
      .map((e) => ({ name: e.name, kind: e.kind, group: e.group })),
  };
}
