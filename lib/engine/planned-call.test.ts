import { describe, expect, it } from "vitest";
import { callIdentity } from "./call-identity";
import { planCall } from "./planned-call";

describe("planCall", () => {
  it("parses the arguments and names the call by turn, step, position, tool and arguments", () => {
    const { planned, parsed } = planCall("t", 2, 1, { id: "c", name: "lookup", arguments: '{"id":"7"}' });
    expect(parsed.ok).toBe(true);
    expect(planned).toEqual({
      position: 1,
      call: { id: "c", name: "lookup", arguments: '{"id":"7"}' },
      args: { id: "7" },
      identity: callIdentity({ turnId: "t", step: 2, position: 1, tool: "lookup", arguments: { id: "7" } }),
    });
  });

  it("keeps the raw text of arguments that do not parse, and says why", () => {
    const { planned, parsed } = planCall("t", 0, 0, { id: "c", name: "lookup", arguments: "{not json" });
    expect(parsed.ok).toBe(false);
    expect(planned.args).toBe("{not json");
    expect(planned.identity).toBe(
      callIdentity({ turnId: "t", step: 0, position: 0, tool: "lookup", arguments: "{not json" }),
    );
  });
});
