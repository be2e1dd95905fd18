/**
 * Test-only: the principal of an API key, by default one that may run turns of every agent in
 * every tenant; `overrides` sets what a test cares about.
 */
import type { Principal } from "@/lib/access/principal";

export function keyPrincipal(overrides: Partial<Principal> = {}): Principal {
  return {
    keyId: "key_x",
    keyName: "x",
    scopes: ["turns:run"],
    agents: null,
    tenant: null,
    turnsPerMinute: null,
    source: "api",
    ...overrides,
  };
}
