import { describe, expect, it } from "vitest";
import { errorReply } from "@/lib/api/route";
import { openAIErrorResponse, refuseNul } from "./openai-errors";

/** What node-postgres raises for text PostgreSQL cannot store (wrapped by Drizzle as the cause). */
class DatabaseError extends Error {
  constructor(readonly code: string) {
    super('invalid byte sequence for encoding "UTF8": 0x00');
  }
}
const drizzleError = (code: string) => new Error("Failed query: insert ...", { cause: new DatabaseError(code) });

describe("U+0000 in the OpenAI-compatible routes", () => {
  it("answers a statement PostgreSQL refused for its text as 400 invalid_request_error, as the main API answers it 400", async () => {
    for (const code of ["22021", "22P05"]) {
      const res = openAIErrorResponse(drizzleError(code));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          message: "the request holds text the database cannot store (a NUL character, U+0000)",
          type: "invalid_request_error",
          param: null,
          code: "bad_request",
        },
      });
      expect(errorReply(drizzleError(code))).toMatchObject({ status: 400, body: { error: { code: "bad_request" } } });
    }
    expect(openAIErrorResponse(drizzleError("23505")).status).toBe(500);
  });

  it("refuses a value holding U+0000, naming it and its param", () => {
    expect(() => refuseNul("ok", "model", "model")).not.toThrow();
    expect(() => refuseNul(null, "model", "model")).not.toThrow();
    expect(() => refuseNul("de\u0000mo", "model", "model")).toThrow(
      expect.objectContaining({
        status: 400,
        type: "invalid_request_error",
        code: "nul_character",
        param: "model",
        message: "model holds a NUL character (U+0000)",
      }),
    );
  });
});
