import { describe, expect, it } from "vitest";
import { assertNoProcessErrors, findProcessErrors } from "../support/server-log-check";

describe("the harnesses' server-log check", () => {
  it("passes a clean log", () => {
    expect(findProcessErrors("▲ Next.js 16\n✓ Ready in 100ms\n")).toEqual([]);
    expect(() => assertNoProcessErrors("✓ Ready", "s")).not.toThrow();
  });

  it("fails a log with an uncaught exception or an unhandled rejection, quoting it", () => {
    const log =
      "✓ Ready\n ⨯ uncaughtException:  TypeError: Invalid state: Controller is already closed\n    at onData\nok\n ⨯ unhandledRejection: Error: nobody awaited me\n";
    expect(findProcessErrors(log)).toHaveLength(2);
    expect(() => assertNoProcessErrors(log, "the server at x")).toThrow(
      /the server at x logged 2 .*\n.*Controller is already closed/,
    );
  });
});
