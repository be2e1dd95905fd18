/**
 * A tiny structured logger: one JSON line per entry on stderr. Callers pass
 * values that are already free of secrets (the trace and call record redact first).
 */
import { getEnv } from "@/lib/env";

const LEVELS = ["debug", "info", "warn", "error"] as const;
type Level = (typeof LEVELS)[number];

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  const configured = getEnv().INSIKA_LOG_LEVEL;
  if (configured === "silent" || LEVELS.indexOf(level) < LEVELS.indexOf(configured)) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, message, ...fields });
  process.stderr.write(`${line}\n`);
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};

/** An error's message and stack, for a log line. */
export function describeError(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error) return { error: error.message, stack: error.stack };
  return { error: String(error) };
}
