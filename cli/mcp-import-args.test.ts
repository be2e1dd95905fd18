import { describe, expect, it } from "vitest";
import { parseMcpImportFlags } from "./mcp-import-args";

describe("insika mcp import flags", () => {
  it("reads headers in both spellings and the OAuth trio", () => {
    expect(
      parseMcpImportFlags([
        "--header",
        "Authorization: Bearer {{secret.tok}}",
        "--header=X-Team: a:b",
        "--oauth-client-id=insika",
        "--oauth-client-secret",
        "{{secret.cs}}",
      ]),
    ).toStrictEqual({
      headers: { Authorization: "Bearer {{secret.tok}}", "X-Team": "a:b" },
      auth: { type: "oauth_client_credentials", client_id: "insika", client_secret: "{{secret.cs}}" },
    });
  });

  it("names what is wrong without echoing a value that may be a credential", () => {
    const cases: [string[], string][] = [
      [["--header", "Bearer sk-live-123"], "--header must look like 'Name: value'"],
      [["--heade=Authorization: Bearer sk-live-123"], "unexpected option '--heade'"],
      [["sk-live-123"], "unexpected argument #3"],
      [["--header"], "--header needs a value"],
      [["--oauth-scope"], "--oauth-scope needs a value"],
      // An inherited property of the flag table is not a flag.
      [["constructor", "sk-live-123"], "unexpected argument #3"],
    ];
    for (const [args, message] of cases) {
      let error: unknown;
      try {
        parseMcpImportFlags(args);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(message);
      expect((error as Error).message).not.toContain("sk-live-123");
    }
  });
});
