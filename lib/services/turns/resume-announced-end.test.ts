import { describe, expect, it } from "vitest";
import { getTurn } from "@/db/queries/turns";
import { insertEvent, listTrace } from "@/db/queries/traces";
import { DomainError } from "@/lib/errors";
import { isTurnActive } from "./active-turns";
import { resumeTurn } from "./resume-turn";
import { insertRunningTurn, sessionDb } from "@/test/support/running-turns";

/** A running turn (its lease long expired) whose trace already ends with `terminal`. */
async function turnWithAnnouncedEnd(terminal: { type: string; data: Record<string, unknown> }) {
  const db = await sessionDb();
  await insertRunningTurn(db, "t", { instance: "ins_old", leaseUntil: 10_000 }, 0);
  await insertEvent(db, { turnId: "t", seq: 1, type: "turn_started", data: { turn_id: "t" }, at: 1 });
  await insertEvent(db, { turnId: "t", seq: 2, type: terminal.type, data: terminal.data, at: 2 });
  return db;
}

describe("resuming a running turn whose trace already ended (a database from before the one-commit end)", () => {
  it("closes the row as the trace says, answers 409, and runs nothing", async () => {
    for (const [terminal, row] of [
      [
        { type: "turn_completed", data: { content: "done", usage: { inputTokens: 3 } } },
        { status: "completed", content: "done", error: null, usage: { inputTokens: 3 } },
      ],
      [
        { type: "turn_halted", data: { content: "said" } },
        { status: "halted", content: "said", error: null },
      ],
      [
        { type: "turn_failed", data: { error: "model error: x" } },
        { status: "failed", error: "model error: x" },
      ],
      [
        { type: "turn_waiting", data: {} },
        { status: "waiting", error: null },
      ],
    ] as const) {
      const db = await turnWithAnnouncedEnd(terminal);
      let thrown: unknown;
      try {
        await resumeTurn(db, "t");
      } catch (error) {
        thrown = error;
      }
      expect(thrown, terminal.type).toBeInstanceOf(DomainError);
      expect((thrown as DomainError).code).toBe("conflict");
      expect((thrown as DomainError).message).toContain(`${terminal.type} was recorded`);
      expect(await getTurn(db, "t"), terminal.type).toMatchObject(row);
      expect((await listTrace(db, ["t"])).events.map((e) => e.type)).toEqual(["turn_started", terminal.type]); // no second end
      expect(isTurnActive("t")).toBe(false);
    }
  });
});
