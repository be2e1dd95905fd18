// A server action is a public POST endpoint: its arguments arrive as the client sent them,
// whatever their TypeScript types say. Each action checks them first, with the rules of its
// /v1 route, and a bad one is the action's error result (validation_failed, naming it): never
// a thrown 500, an `internal` answer, or a write. The actions are called directly here, with
// the Studio's session and database replaced by an admin principal and an in-memory database.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { openDb, type Db } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { getApproval } from "@/db/queries/approvals";
import { listAuditEntries } from "@/db/queries/audit-log";
import { insertSession, listSessions } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import type { Principal } from "@/lib/access/principal";
import { markTurnActive, markTurnInactive } from "@/lib/services/turns/active-turns";
import { agentRow } from "@/test/support/agent-row";
import { insertPendingApproval } from "@/test/support/pending-approval";

const STUDIO_ADMIN: Principal = {
  keyId: "key_studio",
  keyName: "studio admin",
  scopes: ["admin"],
  agents: null,
  tenant: null,
  turnsPerMinute: null,
  source: "studio",
};

let db: Db;
vi.mock("@/lib/api/studio-auth", () => ({ requireStudioSession: async () => STUDIO_ADMIN }));
vi.mock("@/lib/api/studio-db", () => ({ studioDb: () => db }));

const { createSessionAction, decideApprovalAction, followTurnAction } =
  await import("@/app/(studio)/playground/actions");
const { createKeyAction, revokeKeyAction } = await import("@/app/(studio)/keys/actions");
const { testToolAction, checkUrlAction, restoreVersionAction, setExposureAction, saveToolAction, deleteToolAction } =
  await import("@/app/(studio)/tools/actions");
const { savePolicyAction, saveAgentAction, deleteAgentAction } = await import("@/app/(studio)/agents/actions");

/** Every audit entry written so far. */
const audit = () => listAuditEntries(db, { limit: 100 });

/** The action's answer is a 422 whose message names `what`. */
function expectRefused(result: unknown, what: RegExp) {
  expect(result).toMatchObject({ ok: false, code: "validation_failed", error: expect.stringMatching(what) });
}

beforeEach(async () => {
  db = openDb(":memory:");
  await upsertAgent(db, agentRow("a1", { approvals: ["pay"] }));
  await insertSession(db, { id: "ses_1", agentId: "a1", tenant: null });
  await insertTurn(db, { id: "trn_1", sessionId: "ses_1", userMessage: "pay it" });
  await insertPendingApproval(db, { turnId: "trn_1", sessionId: "ses_1", callId: "call_1" });
  // Held active, so a decision does not resume the turn from here (its run would check itself).
  markTurnActive("trn_1");
  return () => markTurnInactive("trn_1");
});

describe("decideApprovalAction", () => {
  it("refuses a decision other than approved or rejected: the approval stays pending, nothing is audited", async () => {
    expectRefused(await decideApprovalAction("apr_1", "bogus" as never), /^decision: /);
    expect((await getApproval(db, "apr_1"))?.status).toBe("pending");
    expect(await audit()).toEqual([]);
    // A good decision then goes through, its note trimmed.
    expect(await decideApprovalAction("apr_1", "approved", "  fine  ")).toEqual({ ok: true, value: "approved" });
    expect(await getApproval(db, "apr_1")).toMatchObject({ status: "approved", note: "fine" });
  });

  it("refuses a note that is not a string with the error result, not a thrown 500", async () => {
    expectRefused(await decideApprovalAction("apr_1", "approved", { text: "hi" } as never), /^note: /);
    expect((await getApproval(db, "apr_1"))?.status).toBe("pending");
    expect(await audit()).toEqual([]);
  });

  it("refuses a note over 2,000 characters, as POST /v1/approvals/:id does", async () => {
    expectRefused(await decideApprovalAction("apr_1", "rejected", "x".repeat(2001)), /^note: /);
    expect((await getApproval(db, "apr_1"))?.status).toBe("pending");
  });

  it("refuses an approval id that is not a string", async () => {
    expectRefused(await decideApprovalAction({} as never, "approved"), /^approvalId: /);
    expect(await audit()).toEqual([]);
  });
});

describe("the other playground actions", () => {
  it("createSessionAction({}) is refused naming the agent id, and creates no session", async () => {
    expectRefused(await createSessionAction({} as never), /^agentId: /);
    expectRefused(await createSessionAction("a1\u0000"), /^agentId: holds a NUL character/);
    expect(await listSessions(db)).toHaveLength(1);
  });

  it("followTurnAction({}, 0) is refused naming the turn id", async () => {
    expectRefused(await followTurnAction({} as never, 0), /^turnId: /);
  });

  it("followTurnAction refuses an after seq that is not a non-negative integer", async () => {
    for (const after of [-1, 1.5, "3", null])
      expectRefused(await followTurnAction("trn_1", after as never), /^afterSeq: /);
    expect(await followTurnAction("trn_1", 0)).toMatchObject({ ok: true, value: { status: "running", events: [] } });
  });
});

describe("createKeyAction", () => {
  it("createKeyAction(null) is refused, and no key is created", async () => {
    const result = await createKeyAction(null as never);
    expect(result).toMatchObject({ ok: false, code: "validation_failed" });
    expect(await audit()).toEqual([]);
  });

  it("refuses a form field of the wrong type, naming it", async () => {
    const form = { name: "k", scopes: ["turns:run"], agents: [], tenant: "", expiresOn: "", turnsPerMinute: 5 };
    expectRefused(await createKeyAction(form as never), /^form\.turnsPerMinute: /);
    expect(await audit()).toEqual([]);
  });

  it("revokeKeyAction refuses an id that is not a string", async () => {
    expectRefused(await revokeKeyAction(["key_x"] as never), /^id: /);
  });
});

describe("testToolAction", () => {
  it("refuses a ctx value that is not a string, as POST /v1/tools/:name/test does, and audits nothing", async () => {
    expectRefused(await testToolAction("current_time", {}, { store_id: { x: 1 } } as never), /^ctx\.store_id: /);
    expect(await audit()).toEqual([]);
  });

  it("refuses an unknown ctx key, and audits nothing", async () => {
    expectRefused(await testToolAction("current_time", {}, { session: "s1" } as never), /^ctx: .*session/);
    expect(await audit()).toEqual([]);
    // A good ctx still runs the call, and it is audited.
    expect(await testToolAction("current_time", {}, { store_id: "s1" })).toMatchObject({ ok: true });
    expect((await audit()).map((e) => e.action)).toEqual(["tool.test"]);
  });
});

describe("the other catalog actions", () => {
  it("checkUrlAction refuses a URL that is not a string", async () => {
    expectRefused(await checkUrlAction(42 as never), /^url: /);
  });

  it("restoreVersionAction refuses a version that is not a positive integer", async () => {
    expectRefused(await restoreVersionAction("lookup", "1" as never), /^version: /);
  });

  it("saveToolAction and deleteToolAction refuse a name that is not a string", async () => {
    expectRefused(await saveToolAction({} as never, {}), /^name: /);
    expectRefused(await deleteToolAction(["lookup"] as never), /^name: /);
  });

  it("setExposureAction refuses an unknown mode and writes nothing", async () => {
    expectRefused(await setExposureAction("a1", "current_time", "hide" as never), /^mode: /);
    expect(await audit()).toEqual([]);
  });

  it("savePolicyAction refuses a policy that is not one, and does not save the agent", async () => {
    for (const policy of [null, "x", { tools_allow: null }, { model: { provider: "demo", model: "x" } }])
      expectRefused(await savePolicyAction("a1", policy as never), /^policy/);
    expect(await audit()).toEqual([]);
  });

  it("saveAgentAction and deleteAgentAction refuse an id that is not a string", async () => {
    expectRefused(await saveAgentAction(["a1"] as never, {}), /^id: /);
    expectRefused(await deleteAgentAction(["a1"] as never), /^id: /);
    expect(await audit()).toEqual([]);
  });
});
