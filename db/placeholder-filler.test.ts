import { eq, fillPlaceholders, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "./client";
import { placeholderFiller } from "./placeholder-filler";
import { param, rawParam } from "./queries/prepared";

// The statements' shapes a turn writes: named values as given and through a column's encoder
// (JSON text, a boolean as 0/1), values bound raw, and constants in the text's parameters.
function statements() {
  const db = openDb(":memory:");
  const { toolCalls, turns, sessions } = db.t;
  const o = db.orm;
  return {
    insertCall: o
      .insert(toolCalls)
      .values({
        turnId: param("turnId"),
        callId: param("callId"),
        tool: "lookup",
        ok: param("ok"),
        startedAt: param("startedAt"),
        durationMs: 5,
        queuedMs: param("queuedMs"),
        record: param("record"),
      })
      .prepare(),
    updateTurn: o
      .update(turns)
      .set({ status: "completed", endedAt: rawParam("now"), usage: sql`${rawParam("usage")}` })
      .where(eq(turns.id, param("id")))
      .prepare(),
    touchSession: o
      .update(sessions)
      .set({ updatedAt: rawParam("now") })
      .where(eq(sessions.id, param("id")))
      .prepare(),
  };
}

const values = {
  insertCall: { turnId: "t1", callId: "c1", ok: true, startedAt: 42, queuedMs: 0, record: { a: [1, "x"], b: null } },
  updateTurn: { id: "t1", now: 7, usage: '{"input":1}' },
  touchSession: { id: "s1", now: 9 },
};

describe("placeholderFiller", () => {
  it.each(Object.keys(values) as (keyof typeof values)[])(
    "%s: the same parameters as Drizzle's fillPlaceholders",
    (name) => {
      const { params } = statements()[name].getQuery();
      expect(params.length).toBeGreaterThan(1);
      const fill = placeholderFiller(params);
      expect(fill(values[name])).toEqual(fillPlaceholders(params, values[name]));
      // and again, with other values (nothing of the first run is kept)
      const other = Object.fromEntries(
        Object.entries(values[name]).map(([k, v]) => [k, typeof v === "number" ? v + 1 : v]),
      );
      expect(fill(other)).toEqual(fillPlaceholders(params, other));
    },
  );

  it("encodes through the column: JSON text for a JSON column, 1/0 for a boolean", () => {
    const { params } = statements().insertCall.getQuery();
    const filled = placeholderFiller(params)(values.insertCall);
    expect(filled).toContain('{"a":[1,"x"],"b":null}');
    expect(filled).toContain(1);
    expect(filled).toContain("lookup");
  });

  it("refuses a missing value with Drizzle's error", () => {
    const { params } = statements().touchSession.getQuery();
    const missing = { now: 1 };
    expect(() => fillPlaceholders(params, missing)).toThrow('No value for placeholder "id" was provided');
    expect(() => placeholderFiller(params)(missing)).toThrow('No value for placeholder "id" was provided');
  });
});
