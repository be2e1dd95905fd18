import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { getSession } from "@/db/queries/sessions";
import { DomainError } from "@/lib/errors";
import { createSession } from "./create-session";
import { agentRow } from "@/test/support/agent-row";

async function withAgent() {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a1"));
  return db;
}

describe("createSession", () => {
  it("stores a session for the agent and presents it", async () => {
    const db = await withAgent();
    const session = await createSession(db, { agentId: "a1", tenant: "acme" });
    expect(session).toEqual({ id: expect.stringMatching(/^ses_/), agent_id: "a1", tenant: "acme" });
    expect(await getSession(db, session.id)).toMatchObject({ agentId: "a1", tenant: "acme" });
  });

  it("refuses an unknown agent with not_found and stores nothing", async () => {
    const db = await withAgent();
    const attempt = () => createSession(db, { agentId: "nobody" });
    await expect(attempt()).rejects.toThrow(DomainError);
    await expect(attempt()).rejects.toThrow(/nobody/);
    expect(db.client.prepare("select count(*) as n from sessions").get()).toEqual({ n: 0 });
  });
});
