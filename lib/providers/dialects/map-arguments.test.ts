import { describe, expect, it } from "vitest";
import { mapStrictArguments } from "./map-arguments";

const schema = {
  type: "object",
  properties: { q: { type: "string" }, n: { type: ["integer", "null"] }, tag: { type: "string" } },
  required: ["q"],
};

describe("mapStrictArguments", () => {
  it("drops the null of an optional property the stored schema does not allow null for", () => {
    expect(mapStrictArguments('{"q":"x","tag":null,"n":null}', schema)).toBe('{"q":"x","n":null}');
  });

  it("hands back text that is not a JSON object unchanged", () => {
    expect(mapStrictArguments('{"q": ', schema)).toBe('{"q": ');
    expect(mapStrictArguments("[1]", schema)).toBe("[1]");
  });

  it("hands back arguments nested too deeply to write again unchanged (the engine refuses them), without throwing", () => {
    const deep = `{"q":"x","extra":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    expect(mapStrictArguments(deep, schema)).toBe(deep);
  });
});
