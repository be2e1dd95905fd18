import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { operatorPrincipal } from "@/lib/access/principal";
import { DomainError } from "@/lib/errors";
import { putTool } from "./tools";

const OPERATOR = operatorPrincipal("api");

describe("putTool", () => {
  it("refuses a body name that is not the path's with a 422, whatever its type (never a 500)", async () => {
    const db = openDb(":memory:");
    // JSON.parse makes a plain object whose `toString` is not a function: String() of it throws.
    for (const name of [JSON.parse('{"toString":1,"valueOf":2}'), 42, null, ["x"], "other"]) {
      let error: unknown;
      try {
        await putTool(db, OPERATOR, "lookup", { name });
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(name)).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe("validation_failed");
      expect((error as DomainError).message).toContain("differs from the path name 'lookup'");
    }
  });
});
