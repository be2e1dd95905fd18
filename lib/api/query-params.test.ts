import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { queryObject } from "./query-params";

describe("query parameters", () => {
  it("takes each parameter once, and names one given twice", () => {
    expect(queryObject(new URLSearchParams("limit=5&after_seq=2"))).toEqual({ limit: "5", after_seq: "2" });
    expect(() => queryObject(new URLSearchParams("limit=0&limit=5"))).toThrow(
      new DomainError("validation_failed", "limit: the parameter is given more than once"),
    );
    // A name that is a property of every object is a parameter like any other.
    expect(queryObject(new URLSearchParams("__proto__=1&constructor=2"))).toEqual(
      Object.fromEntries([
        ["__proto__", "1"],
        ["constructor", "2"],
      ]),
    );
  });
});
