import { describe, expect, it } from "vitest";
import { agentInput } from "./agent-input";

function problem(base_url: unknown): string | null {
  const r = agentInput.safeParse({ model: { provider: "openai-compatible", model: "m", base_url } });
  return r.success ? null : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
}

describe("agent model.base_url", () => {
  it("saves http(s) endpoints, private and loopback ones included (the call decides those)", () => {
    for (const url of ["https://api.openai.com/v1", "http://127.0.0.1:11434/v1", "http://localhost:8000/v1", "https://[::1]:8443/v1", "http://10.0.0.5/v1"]) {
      expect(problem(url), url).toBeNull();
    }
  });

  it.each([
    ["http://127.0.0.1\\v1", "(backslash): URL contains a backslash"],
    ["http://127.0.0.1/v1\t", "(control-chars): URL contains whitespace or control characters"],
    ["http://127.0.0.1/\u0000v1", "(control-chars)"],
    ["https://key:x@api.example.com/v1", "(userinfo): URL contains credentials (user@host)"],
    ["https://@api.example.com/v1", "(userinfo)"],
    ["http://127.0.0.1:99999/v1", '(bad-port): port "99999" is not a valid port (1-65535)'],
    ["http://127.0.0.1:0/v1", "(bad-port): port 0 is not a valid port"],
    ["http://[fe80::1%25eth0]:11434/v1", "(zone-id)"],
    [`https://api.example.com/${"v".repeat(9000)}`, "(too-long)"],
    ["http://metadata.google.internal/v1", "(metadata-host)"],
  ])("refuses %j with the guard's reason", (url, reason) => {
    expect(problem(url)).toContain(`model.base_url: base_url is refused by the egress guard ${reason}`);
  });

  it("refuses other schemes and non-URLs", () => {
    for (const url of ["ftp://127.0.0.1/v1", "javascript:alert(1)", "127.0.0.1:11434", "", 42]) {
      expect(problem(url), String(url)).toMatch(/model\.base_url: /);
    }
  });
});
