/**
 * What the app hands the server process (scripts/serve.mjs) at start, in one global slot
 * (instrumentation.ts fills it): `route`, offered every request before Next.js routes it
 * (true: it answers; node-turn-route.ts), and `shutdown`, awaited on SIGTERM or SIGINT once
 * the listener is closed and the requests in flight are answered
 * (lib/shutdown-tasks.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export interface ServerHooks {
  route(req: IncomingMessage, res: ServerResponse): boolean;
  shutdown(): Promise<void>;
}

/** The slot's name; scripts/serve.mjs spells it out too. */
export const SERVER_HOOKS = Symbol.for("insika.serverHooks");

export function registerServerHooks(hooks: ServerHooks): void {
  (globalThis as Record<symbol, unknown>)[SERVER_HOOKS] = hooks;
}
