import { describe, expect, it } from "vitest";
import { callVerdict } from "@/components/trace/call-record";

describe("the trace's verdict for an outcome-unknown call", () => {
  it("says the outcome is unknown, not that nothing was sent", () => {
    const verdict = callVerdict({
      call_id: "c",
      tool: "charge",
      ok: false,
      status: null,
      error: "outcome unknown: ...",
      outcome_unknown: true,
    });
    expect(verdict).toMatchObject({
      kind: "failed",
      title: "Outcome unknown: the call was in flight when the server stopped; it was not sent again",
    });
    expect(callVerdict({ call_id: "c", tool: "charge", ok: false, status: null, error: "bad" }).title).toBe(
      "Failed before any request was sent",
    );
  });
});
