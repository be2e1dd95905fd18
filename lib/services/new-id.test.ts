import { describe, expect, it } from "vitest";
import { newId } from "./new-id";

describe("newId", () => {
  it("is the prefix, 9 base-36 time characters and 12 random base64url ones, unique", () => {
    const ids = Array.from({ length: 1_000 }, () => newId("turn"));
    for (const id of ids) expect(id).toMatch(/^turn_[0-9a-z]{9}[A-Za-z0-9_-]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sorts by creation time, as text", () => {
    const times = [0, 1, 35, 36, 1_700_000_000_000, 1_700_000_000_001, 4_000_000_000_000];
    const ids = times.map((t) => newId("ses", t));
    expect([...ids].sort()).toEqual(ids);
  });
});
