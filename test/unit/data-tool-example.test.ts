// examples/data-tool without a server: the backend's checks (run standalone, as the README
// offers) and run.mjs's command line. The full run is in test/integration/data-tool-example.int.test.ts.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/server";

const BACKEND = "examples/data-tool/backend.mjs";
const RUN = "examples/data-tool/run.mjs";
const SECRET = "example-secret-4f1c9a";

function startStandaloneBackend(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BACKEND, "0"], {
    env: { ...process.env, INSIKA_SECRET_CALLBACKS_API_KEY: SECRET },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve({ child, url: match[1] as string });
    });
    child.once("exit", (code) => reject(new Error(`backend exited (${code}): ${out}`)));
  });
}

describe("the example's callback backend", () => {
  let backend: { child: ChildProcess; url: string };
  const auth = { authorization: `Bearer ${SECRET}`, "x-chat-id": "ses_1", "content-type": "application/json" };
  const post = (body: string, headers: Record<string, string> = auth, pathname = "/callbacks") =>
    fetch(`${backend.url}${pathname}`, { method: "POST", headers, body }).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));

  beforeAll(async () => {
    backend = await startStandaloneBackend();
  });
  afterAll(() => {
    backend?.child.kill("SIGTERM");
  });

  it("books a slot once, then reports it taken", async () => {
    expect(await post('{"slot":"wed-09:30"}')).toMatchObject({
      status: 200,
      body: { status: "BOOKED", booking_id: "cb_1" },
    });
    expect(await post('{"slot":"wed-09:30"}')).toMatchObject({ status: 200, body: { status: "SLOT_TAKEN" } });
  });

  it("refuses a missing or wrong API key, whatever the body", async () => {
    const { authorization: _, ...noAuth } = auth;
    expect((await post('{"slot":"thu-09:30"}', noAuth)).status).toBe(401);
    expect((await post('{"slot":"thu-09:30"}', { ...auth, authorization: `Bearer ${SECRET}x` })).status).toBe(401);
    expect((await post('{"slot":"thu-09:30"}', { ...auth, authorization: SECRET })).status).toBe(401);
    expect((await post("not json", noAuth)).status).toBe(401);
  });

  it("needs the X-Chat-Id header Insika fills from {{ctx.chat_id}}", async () => {
    const { "x-chat-id": _, ...noChat } = auth;
    expect(await post('{"slot":"fri-09:30"}', noChat)).toMatchObject({
      status: 400,
      body: { error: "X-Chat-Id header is required" },
    });
  });

  it("answers hostile bodies with a clear 4xx", async () => {
    expect((await post("{")).status).toBe(400);
    expect((await post("null")).status).toBe(422);
    expect((await post('{"slot":["mon-10:00"]}')).status).toBe(422);
    expect((await post('{"__proto__":{"slot":"mon-10:00"}}')).status).toBe(422);
    expect((await post(JSON.stringify({ slot: `mon-10:00${"x".repeat(5000)}` }))).status).toBe(422);
    expect((await post(JSON.stringify({ slot: "x".repeat(20_000) }))).status).toBe(413);
  });

  it("serves only POST /callbacks", async () => {
    expect((await post('{"slot":"sat-10:00"}', auth, "/other")).status).toBe(404);
    expect((await fetch(`${backend.url}/callbacks`, { headers: auth })).status).toBe(405);
  });

  it("refuses to start without a secret or with a bad port", () => {
    const env = { ...process.env };
    delete env.INSIKA_SECRET_CALLBACKS_API_KEY;
    const noSecret = spawnSync(process.execPath, [BACKEND, "0"], { env, encoding: "utf8" });
    expect(noSecret.status).toBe(2);
    expect(noSecret.stderr).toContain("set INSIKA_SECRET_CALLBACKS_API_KEY");
    const badPort = spawnSync(process.execPath, [BACKEND, "70000"], {
      env: { ...env, INSIKA_SECRET_CALLBACKS_API_KEY: SECRET },
      encoding: "utf8",
    });
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toContain("port must be an integer 0-65535");
  });
});

describe("run.mjs's command line", () => {
  const run = (args: string[], extra: Record<string, string> = {}) => {
    // Only what the test sets: never a token or secret from the caller's shell.
    const env = { ...process.env };
    delete env.INSIKA_API_TOKEN;
    delete env.INSIKA_SECRET_CALLBACKS_API_KEY;
    return spawnSync(process.execPath, [RUN, ...args], { env: { ...env, ...extra }, encoding: "utf8" });
  };

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--token", "t".repeat(20)], "--token is for --url"],
    [["--url", "http://127.0.0.1:9"], "--url needs --token"],
    [["--url", "ftp://127.0.0.1", "--token", "t".repeat(20)], "--url must be http(s)"],
    [["--url", "not a url", "--token", "t".repeat(20)], "--url is not a URL"],
    [["--backend-port", "80a"], "--backend-port must be 1-65535"],
    [["--backend-port", "0"], "--backend-port must be 1-65535"],
  ])("refuses %j with exit 2 and says why", (args, message) => {
    const result = run(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("usage: node examples/data-tool/run.mjs");
  });

  it("with --url, needs the secret the running Insika has", () => {
    const result = run(["--url", "http://127.0.0.1:9", "--token", "t".repeat(20)]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("set INSIKA_SECRET_CALLBACKS_API_KEY");
  });

  it("says plainly when a running Insika cannot be reached", async () => {
    const [insikaPort, backendPort] = [await freePort(), await freePort()];
    const result = run(["--url", `http://127.0.0.1:${insikaPort}`, "--backend-port", String(backendPort)], {
      INSIKA_API_TOKEN: "t".repeat(20),
      INSIKA_SECRET_CALLBACKS_API_KEY: SECRET,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `POST /v1/tools/manifest: cannot reach Insika at http://127.0.0.1:${insikaPort} (ECONNREFUSED)`,
    );
  });
});
