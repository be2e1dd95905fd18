/** Read models for the Studio's agent pages. */
import type { Db } from "@/db/database";
import { getAgent, listAgents } from "@/db/queries/agents";
import { agentBody } from "./agents";
import { agentToolExposure } from "./agents";
import { getCatalog } from "@/lib/services/tools/catalog";

/** Every agent with the size of what its turns are offered. */
export async function listAgentSummaries(db: Db) {
  const catalog = await getCatalog(db);
  return Promise.all(
    (await listAgents(db)).map(async (a) => {
      const { offered, deferred, denied } = await agentToolExposure(db, a, catalog);
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
    }),
  );
}

/** One agent for its editor: the PUT body, its policy, and the usable catalog tools; undefined when absent. */
export async function getAgentEditor(db: Db, id: string) {
  const row = await getAgent(db, id);
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
    tools: [...(await getCatalog(db)).entries.values()]
      .filter((e) => e.status === "ok")
      .map((e) => ({ name: e.name, kind: e.kind, group: e.group })),
  };
}
