import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { assertUnpinned, maySeeApproval, type Principal } from "./principal";
import type { Scope } from "./scopes";

const key = (scopes: Scope[], tenant: string | null = null): Principal => ({
  keyId: "key_t",
  keyName: "test",
  scopes,
  agents: null,
  tenant,
  turnsPerMinute: null,
  source: "api",
});

describe("maySeeApproval", () => {
  it("needs approvals:decide or traces:read (admin holds both)", () => {
    for (const scopes of [["approvals:decide"], ["traces:read"], ["admin"]] as Scope[][])
      expect(maySeeApproval(key(scopes), { tenant: "acme" })).toBe(true);
    for (const scopes of [["turns:run"], ["tools:write"], []] as Scope[][])
      expect(maySeeApproval(key(scopes), { tenant: null })).toBe(false);
  });

  it("limits a pinned key to its tenant's sessions (not another's, nor one without a tenant); an unpinned key sees every tenant's", () => {
    const pinned = key(["admin"], "acme");
    expect(maySeeApproval(pinned, { tenant: "acme" })).toBe(true);
    expect(maySeeApproval(pinned, { tenant: "globex" })).toBe(false);
    expect(maySeeApproval(pinned, { tenant: null })).toBe(false);
    expect(maySeeApproval(key(["approvals:decide"]), { tenant: "globex" })).toBe(true);
  });
});

describe("assertUnpinned", () => {
  it("passes a key without a tenant and refuses a pinned one, admin too, naming the tenant", () => {
    expect(() => assertUnpinned(key(["admin"]), "managing keys")).not.toThrow();
    let error: unknown;
    try {
      assertUnpinned(key(["admin"], "acme"), "managing keys");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("forbidden");
    expect((error as DomainError).message).toBe(
      "this key is pinned to tenant 'acme'; managing keys spans every tenant, so it needs a key without a tenant",
    );
  });
});
