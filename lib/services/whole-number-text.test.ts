import { describe, expect, it } from "vitest";
import { z } from "zod";
import { wholeNumberText } from "./whole-number-text";

describe("wholeNumberText", () => {
  it("reads a whole number only from decimal digits, within its bounds", () => {
    const limit = z.object({ limit: wholeNumberText(1, 500) });
    expect(limit.parse({ limit: "500" })).toEqual({ limit: 500 });
    expect(limit.parse({ limit: "007" })).toEqual({ limit: 7 });
    for (const bad of ["", " 7", "7 ", "+7", "-1", "0", "501", "0x10", "1e2", "2.5", "Infinity", "9".repeat(17)])
      expect(limit.safeParse({ limit: bad }).success, JSON.stringify(bad)).toBe(false);
    expect(limit.safeParse({ limit: 5 }).success).toBe(false); // text only
  });
});
