// The config file is applied whole or not at all, and a malformed one is a 422 naming each
// problem (never a TypeError from deep inside, never a silent choice between two entries).
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { listAgents } from "@/db/queries/agents";
import { listAuditEntries } from "@/db/queries/audit-log";
import { listTools } from "@/db/queries/tools";
import { operatorPrincipal } from "@/lib/access/principal";
import { applyConfig } from "./apply-config";

const OPERATOR = operatorPrincipal("config");
const model = { provider: "demo", model: "demo" };
const tool = (name: string) => ({
  name,
  description: `the ${name} tool`,
  request: { method: "GET", url: "https://api.example.com/items" },
});

/** Applies `config` to a fresh database: the outcome, and what the database then holds. */
async function apply(config: unknown) {
  const db = openDb(":memory:");
  const outcome = await applyConfig(db, OPERATOR, config).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const held = {
    agents: (await listAgents(db)).map((a) => a.id),
    tools: (await listTools(db)).map((t) => t.name),
    audit: (await listAuditEntries(db, { limit: 10 })).length,
  };
  return { outcome, held };
}

const NOTHING = { agents: [], tools: [], audit: 0 };

/** The outcome of a refused config: a 422 whose message holds `text`. */
const refusedWith = (text: string) => ({
  ok: false,
  error: { code: "validation_failed", message: expect.stringContaining(text) },
});

describe("applyConfig", () => {
  it("applies agents and their data tools in one go", async () => {
    const { outcome, held } = await apply([{ id: "support", model, dataTools: [tool("lookup")] }]);
    expect(outcome).toEqual({ ok: true, value: { agents: ["support"], created: ["lookup"], updated: [] } });
    expect(held).toEqual({ agents: ["support"], tools: ["lookup"], audit: 1 });
  });

  it.each([
    ["an object", { lookup: tool("lookup") }],
    ["a string", "lookup"],
    ["a number", 3],
  ])("refuses dataTools that is %s with a 422 naming the agent, and writes nothing", async (_what, dataTools) => {
    const { outcome, held } = await apply([
      { id: "ok", model },
      { id: "support", model, dataTools },
    ]);
    expect(outcome).toMatchObject(refusedWith("agent 'support': dataTools must be a list"));
    expect(held).toEqual(NOTHING);
  });

  it("refuses an agent id given twice (which entry wins would be a guess), and writes nothing", async () => {
    const { outcome, held } = await apply([
      { id: "support", model, instructions: "first" },
      { id: "support", model, instructions: "second" },
    ]);
    expect(outcome).toMatchObject(refusedWith("agent 'support': defined twice in this config"));
    expect(held).toEqual(NOTHING);
  });
});
