import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS, serverNodeFlags } from "../../scripts/server-node-flags.mjs";

describe("serverNodeFlags", () => {
  it("gives the server a 64 MiB young generation semi-space", () => {
    expect(SERVER_NODE_FLAGS).toEqual(["--max-semi-space-size=64"]);
    expect(serverNodeFlags("")).toEqual(["--max-semi-space-size=64"]);
    expect(serverNodeFlags("--enable-source-maps")).toEqual(["--max-semi-space-size=64"]);
  });

  it("leaves the setting to an operator whose NODE_OPTIONS names it", () => {
    expect(serverNodeFlags("--max-semi-space-size=16")).toEqual([]);
    expect(serverNodeFlags("--enable-source-maps --max-semi-space-size=128")).toEqual([]);
  });
});
