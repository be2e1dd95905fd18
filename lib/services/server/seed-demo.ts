/**
 * The first-run demo: one agent on the offline `demo` model and three data
 * tools that call the small demo backend bundled with the app
 * (app/demo-backend). Only what is missing is created, so an operator's edits survive restarts.
 */
import type { Db } from "@/db/database";
import { operatorPrincipal } from "@/lib/access/principal";
import { getAgent } from "@/db/queries/agents";
import { getTool } from "@/db/queries/tools";
import { applyConfig } from "./apply-config";
import type { AgentConfig } from "@/lib/config/define";

export const DEMO_AGENT_ID = "demo";

/** The demo agent and tools, pointing at the backend on this server's port. */
export function demoConfig(port: number): AgentConfig {
  const base = `http://127.0.0.1:${port}/demo-backend`;
  return {
    id: DEMO_AGENT_ID,
    name: "Demo store assistant",
    instructions: "You help customers of the demo store. Use the tools; never invent product data.",
    model: { provider: "demo", model: "demo" },
    tools_deferred: ["order_status"],
    metadata: { store_id: "demo-store" },
    dataTools: [
      {
        name: "search_catalog",
        description: "Search the demo store's catalog by keywords",
        parameters:
          "query | string | required | Words to look for\nlimit | integer | optional | How many results (default 5)",
        request: {
          method: "GET",
          url: `${base}/catalog`,
          query: { q: "{{query}}", limit: "{{limit}}", store: "{{ctx.store_id}}" },
        },
        response: { extract: "json_path", path: "$.results" },
        group: "catalog",
        tags: ["demo"],
      },
      {
        name: "subscribe_to_learning_path",
        description: "Subscribe the customer to a learning path; the backend confirms to the customer itself",
        parameters:
          "path | string | required | The learning path's slug\nemail | string | required | The customer's email",
        request: {
          method: "POST",
          url: `${base}/subscribe`,
          body: { path: "{{path}}", email: "{{email}}", chat_id: "{{ctx.chat_id}}" },
        },
        halt_when: {
          json_path: "tool_result.status",
          equals: ["SUBSCRIBED"],
          say: { json_path: "tool_result.message" },
        },
        group: "learning",
        tags: ["demo", "halts"],
      },
      {
        name: "order_status",
        description: "Look up the status of an order by its number",
        parameters: "order_id | string | required | The order number, e.g. A-1001",
        request: { method: "GET", url: `${base}/orders/{{order_id}}` },
        group: "orders",
        tags: ["demo", "deferred"],
      },
    ],
  };
}

/** Creates the demo agent and tools that do not exist yet; never overwrites. */
export async function seedDemo(db: Db, port: number): Promise<{ created: string[] }> {
  const { dataTools = [], ...agent } = demoConfig(port);
  const agentExists = (await getAgent(db, DEMO_AGENT_ID)) !== undefined;
  const missing = [];
  for (const t of dataTools) if (!(await getTool(db, t.name))) missing.push(t);
  if (agentExists && missing.length === 0) return { created: [] };
  const result = await applyConfig(db, operatorPrincipal("config"), { ...agent, dataTools: missing }, "seed", {
    writeAgents: !agentExists,
  });
  return { created: [...(agentExists ? [] : [`agent ${DEMO_AGENT_ID}`]), ...result.created] };
}
