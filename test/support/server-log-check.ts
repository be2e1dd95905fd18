/**
 * The harnesses' server-log check: a run whose server logged an uncaught
 * exception or an unhandled rejection fails, even when every assertion passed.
 * Next.js catches both at the process level and only logs them
 * (`uncaughtException: ...`, `unhandledRejection: ...`), so without this check
 * such a bug (a stream enqueued after close, a promise nobody awaits) ships
 * silently: the request that caused it may well have answered 200.
 */

/** What Next.js's process-level handlers print (router-server.js, process-error-handlers.js). */
const MARKERS = ["uncaughtException", "unhandledRejection"];
/** Lines of context shown after each marker: the error's message and the top of its stack. */
const CONTEXT_LINES = 6;
/** Findings shown in the failure message; the rest are counted. */
const MAX_FINDINGS = 5;

/** The excerpts of `log` that report an uncaught exception or an unhandled rejection (empty: clean). */
export function findProcessErrors(log: string): string[] {
  const lines = log.split(/\r?\n/);
  const found: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (MARKERS.some((m) => line.includes(m))) found.push(lines.slice(i, i + 1 + CONTEXT_LINES).join("\n"));
  }
  return found;
}

/**
 * Throws when `log` reports an uncaught exception or an unhandled rejection,
 * naming `who` (which server) and quoting the first few findings.
 */
export function assertNoProcessErrors(log: string, who: string): void {
  const found = findProcessErrors(log);
  if (found.length === 0) return;
  const shown = found.slice(0, MAX_FINDINGS).join("\n---\n");
  const more = found.length > MAX_FINDINGS ? `\n(and ${found.length - MAX_FINDINGS} more)` : "";
  throw new Error(`${who} logged ${found.length} uncaught exception(s)/unhandled rejection(s):\n${shown}${more}`);
}
