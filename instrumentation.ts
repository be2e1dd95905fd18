// Runs once when a server process starts: open (and migrate) the database and
// make sure an API token exists, so a bare `next start` is usable too; then hand the server
// process (scripts/serve.mjs) its hooks: the JSON turn it answers before Next's router, how
// long a stop waits for the requests in flight, and what to finish before it exits; and tell
// it whether the start succeeded, so that a start that failed ends the process instead of
// leaving it answering 500 (lib/api/server-hooks.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerServerHooks, reportServerStart } = await import("@/lib/api/server-hooks");
  try {
    const { refuseFetchForbiddenMethods } = await import("./lib/api/refuse-fetch-forbidden-methods");
    refuseFetchForbiddenMethods();
    const { startServerProcess } = await import("@/lib/services/server/start-server-process");
    await startServerProcess();
    const { serveOnNode } = await import("@/lib/api/node-turn-route");
    const { runShutdownTasks } = await import("@/lib/shutdown-tasks");
    const { getEnv } = await import("@/lib/env");
    const shutdownGraceMs = getEnv().INSIKA_SHUTDOWN_GRACE * 1000;
    registerServerHooks({ route: serveOnNode, shutdown: runShutdownTasks, shutdownGraceMs });
  } catch (error) {
    reportServerStart({ ok: false, error });
    throw error;
  }
  reportServerStart({ ok: true });
}
