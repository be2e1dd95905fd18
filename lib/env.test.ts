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

describe("INSIKA_SHUTDOWN_GRACE", () => {
  it("is seconds, 25 by default, and 0 cuts at once", () => {
    expect(parseEnv({}).INSIKA_SHUTDOWN_GRACE).toBe(25);
    expect(parseEnv({ INSIKA_SHUTDOWN_GRACE: "0" }).INSIKA_SHUTDOWN_GRACE).toBe(0);
    expect(parseEnv({ INSIKA_SHUTDOWN_GRACE: "2.5" }).INSIKA_SHUTDOWN_GRACE).toBe(2.5);
  });

  it("refuses a value that is not a number of seconds up to an hour, naming the variable", () => {
    for (const bad of ["soon", "-1", "3601"]) {
      expect(() => parseEnv({ INSIKA_SHUTDOWN_GRACE: bad })).toThrow(/INSIKA_SHUTDOWN_GRACE/);
    }
  });
});
