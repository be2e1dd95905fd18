/**
 * Test-only: three "charge" endpoints (a, b, c) on a loopback backend, the data tools that
 * call them (`charge_a`…, one `key` argument sent in the body), and a count of the requests a
 * key reached the backend with: what the crash and fleet tests use to prove that no side
 * effect happens twice. A key in `held` is answered only after `holdMs` (the call stays in
 * flight while the test kills a server).
 */
import type { LoopbackBackend } from "./loopback-backend";

export const CHARGE_ENDPOINTS = ["a", "b", "c"] as const;

/** Routes POST /charge/a, /charge/b and /charge/c: `{charged: key}`, late for a held key. */
export function routeCharges(backend: LoopbackBackend, held: ReadonlySet<string>, holdMs: number): void {
  for (const x of CHARGE_ENDPOINTS) {
    backend.route("POST", `/charge/${x}`, (req) => {
      const key = JSON.parse(req.body).key as string;
      return { body: { charged: key }, ...(held.has(key) ? { delayMs: holdMs } : {}) };
    });
  }
}

/** The data tool `charge_<x>` calling that endpoint. */
export function chargeTool(backend: LoopbackBackend, x: string, extra: Record<string, unknown> = {}) {
  return {
    name: `charge_${x}`,
    description: `charge ${x}`,
    parameters: "key | string | required | idempotency key",
    request: { method: "POST", url: `${backend.url}/charge/${x}`, body: { key: "{{key}}" } },
    ...extra,
  };
}

/** How many requests carrying `key` reached the backend. */
export function chargesSent(backend: LoopbackBackend, key: string): number {
  return backend.requests.filter((r) => r.method === "POST" && JSON.parse(r.body || "{}").key === key).length;
}
