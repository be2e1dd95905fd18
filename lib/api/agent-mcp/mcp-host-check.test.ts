import { describe, expect, it } from "vitest";
import { checkMcpRequestHost, isAllowedHost, parseAllowedHosts } from "./mcp-host-check";

const none = parseAllowedHosts(undefined);
const headers = (h: Record<string, string>) => new Headers(h);

describe("the MCP endpoint's Host/Origin check", () => {
  it("allows loopback on any port", () => {
    for (const host of ["localhost", "localhost:3000", "127.0.0.1:8080", "[::1]:9", "app.localhost", "LOCALHOST."])
      expect(isAllowedHost(host, none), host).toBe(true);
  });

  it("refuses other names, and look-alikes of loopback", () => {
    for (const host of [
      "evil.example.com",
      "localhost.evil.com",
      "127.0.0.1.nip.io",
      "",
      "a b",
      "user@localhost",
      "127.0.0.2",
    ])
      expect(isAllowedHost(host, none), host).toBe(false);
  });

  it("allows what INSIKA_MCP_ALLOWED_HOSTS lists: a name on any port, host:port exactly", () => {
    const allowed = parseAllowedHosts(" insika.example.com , gw.example.com:8443 ");
    expect(isAllowedHost("insika.example.com", allowed)).toBe(true);
    expect(isAllowedHost("insika.example.com:443", allowed)).toBe(true);
    expect(isAllowedHost("gw.example.com:8443", allowed)).toBe(true);
    expect(isAllowedHost("gw.example.com:443", allowed)).toBe(false);
    expect(isAllowedHost("gw.example.com", allowed)).toBe(false);
  });

  it("refuses a rebinding request by its Host, and by its Origin", () => {
    expect(checkMcpRequestHost(headers({ host: "evil.example.com" }), none).ok).toBe(false);
    const viaOrigin = checkMcpRequestHost(headers({ host: "127.0.0.1:3000", origin: "http://evil.example.com" }), none);
    expect(viaOrigin).toEqual({ ok: false, reason: expect.stringContaining("Origin") });
    expect(checkMcpRequestHost(headers({ host: "127.0.0.1:3000", origin: "null" }), none).ok).toBe(false);
    expect(checkMcpRequestHost(headers({}), none).ok).toBe(false);
  });

  it("accepts loopback Host with a loopback Origin or none", () => {
    expect(checkMcpRequestHost(headers({ host: "127.0.0.1:3000" }), none)).toEqual({ ok: true });
    expect(checkMcpRequestHost(headers({ host: "localhost:3000", origin: "http://localhost:3000" }), none)).toEqual({
      ok: true,
    });
  });
});
