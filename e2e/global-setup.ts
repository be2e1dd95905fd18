import { startServer } from "../test/support/server";

// One real server for the browser specs, in demo mode (seeded agent and tools).
export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT ?? 3417);
  const server = await startServer({
    port,
    env: { INSIKA_DEMO: "1", INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_HOSTS: `127.0.0.1:${port}` },
  });
  process.env.E2E_TOKEN = server.token;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => server.stop();
}
