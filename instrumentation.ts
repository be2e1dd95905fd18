// Runs once when a server process starts: open (and migrate) the database and
// make sure an API token exists, so a bare `next start` is usable too; then register the
// JSON turn route scripts/serve.mjs answers before Next's router (lib/api/node-turn-route.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { refuseFetchForbiddenMethods } = await import("./lib/api/refuse-fetch-forbidden-methods");
  refuseFetchForbiddenMethods();
  const { startServerProcess } = await import("@/lib/services/server/start-server-process");
  await startServerProcess();
  const { registerNodeRoute } = await import("@/lib/api/node-turn-route");
  registerNodeRoute();
}
