import { describe, expect, it } from "vitest";
import { failureText } from "./failure-text";

describe("failureText", () => {
  it("names who was at fault", () => {
    expect(failureText("model error: 503", "model")).toBe("Failed — the model provider: model error: 503");
    expect(failureText("tool call limit exceeded (3)", "limit")).toBe("Failed — a limit: tool call limit exceeded (3)");
    expect(failureText("turn cancelled", "cancelled")).toBe("Failed — a cancellation: turn cancelled");
    expect(failureText("checkpoint failed: disk full", "system")).toBe(
      "Failed — Insika itself: checkpoint failed: disk full",
    );
    expect(failureText("model error: model configuration: x", "configuration")).toBe(
      "Failed — the configuration: model error: model configuration: x",
    );
  });

  it("reads an unknown, missing or hostile fault plainly", () => {
    for (const fault of [undefined, null, "", "toString", "__proto__", "constructor", 3, { model: 1 }]) {
      expect(failureText("boom", fault)).toBe("Failed: boom");
    }
  });
});
