import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

describe("INSIKA_MANIFEST_ENV", () => {
  it("is a CSV of names, trimmed and deduplicated; unset = none", () => {
    expect(parseEnv({}).INSIKA_MANIFEST_ENV).toEqual([]);
    expect(parseEnv({ INSIKA_MANIFEST_ENV: " API_URL, REGION,,API_URL " }).INSIKA_MANIFEST_ENV).toEqual([
      "API_URL",
      "REGION",
    ]);
  });

  it("refuses an entry that is not a variable name", () => {
    expect(() => parseEnv({ INSIKA_MANIFEST_ENV: "API_URL,not a name" })).toThrow(
      "INSIKA_MANIFEST_ENV: 'not a name' is not an environment variable name",
    );
  });
});
