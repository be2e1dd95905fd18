/**
 * What the app hands the server process (scripts/serve.mjs) at start, in one global slot
 * (instrumentation.ts fills it): `route`, offered every request before Next.js routes it
 * (true: it answers; node-turn-route.ts), and `shutdown` (lib/shutdown-tasks.ts), awaited on
 * SIGTERM or SIGINT once the listener is closed and the requests in flight are answered or,
 * after `shutdownGraceMs`, cut. And the other way, in a slot the server process leaves: how
 * the app's start went, which the server process waits for before it listens.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export interface ServerHooks {
  route(req: IncomingMessage, res: ServerResponse): boolean;
  shutdown(): Promise<void>;
  /** How long a stop waits for the requests in flight before it closes their connections (INSIKA_SHUTDOWN_GRACE). */
  shutdownGraceMs: number;
}

/** The slot's name; scripts/serve.mjs spells it out too. */
export const SERVER_HOOKS = Symbol.for("insika.serverHooks");

export function registerServerHooks(hooks: ServerHooks): void {
  (globalThis as Record<symbol, unknown>)[SERVER_HOOKS] = hooks;
}

/** The slot scripts/serve.mjs leaves for the start's outcome (a function; absent under a bare `next start`); it spells the name out too. */
export const SERVER_START = Symbol.for("insika.serverStart");

export type ServerStart = { ok: true } | { ok: false; error: unknown };

/**
 * Tells the server process how the app's start went: it listens once the start succeeded, and
 * exits with the reason when it failed (a bad setting, a database it cannot open), rather than
 * listening and answering every request 500 as `next start` does.
 */
export function reportServerStart(outcome: ServerStart): void {
  const report = (globalThis as Record<symbol, unknown>)[SERVER_START];
  if (typeof report === "function") report(outcome);
}
