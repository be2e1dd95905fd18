// Runs once when a server process starts: open (and migrate) the database and
// make sure an API token exists, so a bare `next start` is usable too; then hand the server
// process (scripts/serve.mjs) its hooks: the JSON turn it answers before Next's router, and
// what to finish before it exits (lib/api/server-hooks.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { refuseFetchForbiddenMethods } = await import("./lib/api/refuse-fetch-forbidden-methods");
  refuseFetchForbiddenMethods();
  const { startServerProcess } = await import("@/lib/services/server/start-server-process");
  await startServerProcess();
  const { registerServerHooks } = await import("@/lib/api/server-hooks");
  const { serveOnNode } = await import("@/lib/api/node-turn-route");
  const { runShutdownTasks } = await import("@/lib/shutdown-tasks");
  registerServerHooks({ route: serveOnNode, shutdown: runShutdownTasks });
}
