import { describe, expect, it } from "vitest";
import { openApiImportBody } from "./openapi-import-args";

const read = (p: string) => `text of ${p}`;

describe("insika openapi import arguments", () => {
  it("a URL is fetched by the import; a file is sent as the document's text", () => {
    expect(openApiImportBody(["import", "pets", "https://example.com/openapi.yaml"], read)).toStrictEqual({
      name: "pets",
      url: "https://example.com/openapi.yaml",
    });
    expect(
      openApiImportBody(
        [
          "import",
          "pets",
          "./spec.yaml",
          "--server",
          "http://127.0.0.1:9",
          "--operation",
          "getPetById",
          "--operation",
          "POST /pet",
          "--auth",
          "api_key=pets_key",
        ],
        read,
      ),
    ).toStrictEqual({
      name: "pets",
      document: "text of ./spec.yaml",
      server: "http://127.0.0.1:9",
      operations: ["getPetById", "POST /pet"],
      auth: { api_key: "pets_key" },
    });
  });

  it.each([
    [["import", "pets"], "usage: insika openapi import"],
    [["export", "pets", "x"], "usage: insika openapi import"],
    [["import", "pets", "x", "--server"], "--server needs a value"],
    [["import", "pets", "x", "--auth", "nope"], "--auth takes SCHEME=SECRET"],
    [["import", "pets", "x", "--bogus", "1"], "unknown option '--bogus'"],
  ])("refuses %j", (args, message) => {
    expect(() => openApiImportBody(args, read)).toThrow(message);
  });

  it("does not echo an --auth value it refuses (a secret's value typed by mistake)", () => {
    expect(() => openApiImportBody(["import", "pets", "x", "--auth", "sk-live-123"], read)).toThrow(
      /^--auth takes SCHEME=SECRET \(the value given has no scheme before an '='\)$/,
    );
  });
});
