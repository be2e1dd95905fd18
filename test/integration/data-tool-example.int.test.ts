// examples/data-tool/run.mjs against a running Insika (--url): it passes when that Insika is set
// up as its README says, and exits 1, naming the failed verdict, when it is not. (scripts/test.sh
// runs the other mode, where the example starts its own Insika.)
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startServer, type TestServer } from "../support/server";

const SECRET = "example-int-secret-8d2e61";

/** Runs the example to its end (async, so the server in this process keeps answering). */
function runExample(
  server: TestServer,
  backendPort: number,
  secret: string,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["examples/data-tool/run.mjs", "--url", server.url, "--backend-port", String(backendPort)],
      {
        env: { ...process.env, INSIKA_API_TOKEN: server.token, INSIKA_SECRET_CALLBACKS_API_KEY: secret },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.once("exit", (code) => resolve({ code, out }));
  });
}

describe("the data-tool example against a running Insika", () => {
  let backendPort: number;
  let server: TestServer;
  let closed: TestServer;

  beforeAll(async () => {
    backendPort = await freePort();
    const base = {
      INSIKA_SECRET_CALLBACKS_API_KEY: SECRET,
      CALLBACKS_BACKEND_URL: `http://127.0.0.1:${backendPort}`,
      INSIKA_MANIFEST_ENV: "CALLBACKS_BACKEND_URL",
      INSIKA_EGRESS_ALLOW_HTTP: "1",
    };
    server = await startServer({ env: { ...base, INSIKA_EGRESS_HOSTS: `127.0.0.1:${backendPort}` } });
    // Set up like the first, but without the egress opening for the backend.
    closed = await startServer({ env: base });
  });
  afterAll(async () => {
    await server?.stop();
    await closed?.stop();
  });

  it("passes, and leaves the tool stored with its secret reference only", async () => {
    const result = await runExample(server, backendPort, SECRET);
    expect(result.out).toContain("OK: every verdict is the expected one.");
    expect(result.code).toBe(0);
    expect(result.out).not.toContain(SECRET);
    const tool = await server.api("GET", "/v1/tools/book_callback");
    expect(tool.body.request.url).toBe(`http://127.0.0.1:${backendPort}/callbacks`);
    expect(tool.body.request.headers.Authorization).toBe("Bearer {{secret.callbacks_api_key}}");
  });

  it("runs again on the same Insika (the manifest reports an update)", async () => {
    const result = await runExample(server, backendPort, SECRET);
    expect(result.out).toContain("updated: [book_callback]");
    expect(result.code).toBe(0);
  });

  it("exits 1 when the backend refuses the key: the call is not ok and nothing halts", async () => {
    const result = await runExample(server, backendPort, `${SECRET}-other`);
    expect(result.code).toBe(1);
    expect(result.out).toContain("verdict status 401, ok false, halted false");
    expect(result.out).toContain("✗ turn 1: the call reached the backend (status 200, ok)");
    expect(result.out).toContain("FAILED:");
  });

  it("exits 1 when egress blocks the backend, and shows the rule and the setting that would allow it", async () => {
    const result = await runExample(closed, backendPort, SECRET);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/egress {2}blocked \([a-z-]+\): .*INSIKA_EGRESS/);
    expect(result.out).toContain("destination blocked");
    expect(result.out).toContain("FAILED:");
  });
});
