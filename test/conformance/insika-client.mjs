/**
 * The "client" the MCP conformance runner starts (`conformance client --command ...`):
 * not an MCP client of its own, but a driver of a running Insika, so the scenario
 * exercises the product's real path. The runner appends the scenario server's URL
 * and sets MCP_CONFORMANCE_SCENARIO; we then
 *   1. import that server into Insika (POST /v1/mcp/import: discovery),
 *   2. call the scenario's tool through a turn of a scripted agent (the MCP call path),
 *   3. check what the trace says the call returned.
 * Exits 0 when Insika did its part, 1 with the reason on stderr otherwise; the
 * runner's own checks (what the scenario server saw) decide the scenario.
 *
 * Env: INSIKA_URL, INSIKA_TOKEN (the running server), INSIKA_SCRIPTED_DIR (the
 * server's scripted-model directory, written here).
 */
import fs from "node:fs";
import path from "node:path";

/** Per scenario: the tool to call through a turn, its arguments and what its result must say (none: import only). */
const CALLS = {
  initialize: null,
  tools_call: { tool: "add_numbers", args: { a: 2, b: 3 }, expect: "The sum of 2 and 3 is 5" },
  "sse-retry": { tool: "test_reconnection", args: {}, expect: "Reconnection test completed successfully" },
  // OAuth client credentials: the import authenticates (token from the server's metadata), then a call does too.
  "auth/client-credentials-basic": "first-tool",
};

/** Scenarios whose server is protected: imported with OAuth client credentials from the scenario's context. */
const OAUTH = new Set(["auth/client-credentials-basic"]);

const serverUrl = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const base = need("INSIKA_URL");
const token = need("INSIKA_TOKEN");
const scriptedDir = need("INSIKA_SCRIPTED_DIR");

function need(name) {
  const value = process.env[name];
  if (!value) fail(`${name} is not set`);
  return value;
}

function fail(message) {
  process.stderr.write(`insika conformance client (${scenario}): ${message}\n`);
  process.exit(1);
}

async function api(method, pathname, body) {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text for the message
  }
  return { status: res.status, body: parsed };
}

async function main() {
  if (!(scenario in CALLS)) fail(`no plan for scenario '${scenario}' (known: ${Object.keys(CALLS).join(", ")})`);
  const instance = `conf_${scenario.replace(/[^a-z0-9]/gi, "_").toLowerCase()}`;
  const body = { name: instance, url: serverUrl };
  if (OAUTH.has(scenario)) body.auth = oauthAuth(instance);
  const imported = await api("POST", "/v1/mcp/import", body);
  if (imported.status !== 200) fail(`import answered ${imported.status}: ${JSON.stringify(imported.body)}`);
  process.stdout.write(`imported ${JSON.stringify(imported.body)}\n`);

  const names = [...imported.body.created, ...imported.body.updated];
  const planned = CALLS[scenario];
  if (planned === null) return;
  if (planned === "first-tool" && names.length === 0) return; // the scenario's server lists no tool: the import was the exercise
  const call = planned === "first-tool" ? { tool: names.sort()[0], args: {}, expect: "" } : planned;
  if (!names.includes(call.tool)) fail(`the import did not create '${call.tool}' (got ${JSON.stringify(names)})`);

  const agent = `conf-${instance.replace(/_/g, "-")}`;
  const steps = [[{ type: "tool-call", name: call.tool, args: call.args }], [{ type: "text", text: "done" }]];
  fs.writeFileSync(path.join(scriptedDir, `${agent}.json`), JSON.stringify(steps));
  const put = await api("PUT", `/v1/agents/${agent}`, {
    model: { provider: "scripted", model: agent },
    tools_allow_groups: [imported.body.group],
  });
  if (put.status !== 200 && put.status !== 201) fail(`agent write answered ${put.status}: ${JSON.stringify(put.body)}`);
  const session = await api("POST", "/v1/sessions", { agent_id: agent });
  if (session.status !== 201) fail(`session answered ${session.status}: ${JSON.stringify(session.body)}`);
  const turn = await api("POST", `/v1/sessions/${session.body.id}/turns`, { message: "go" });
  if (turn.status !== 200 || turn.body.status !== "completed")
    fail(`the turn did not complete: ${turn.status} ${JSON.stringify(turn.body)}`);
  const trace = await api("GET", `/v1/sessions/${session.body.id}/trace`);
  const calls = trace.body?.turns?.[0]?.calls ?? [];
  const made = calls.find((c) => c.tool === call.tool);
  if (!made) fail(`the trace has no call of '${call.tool}': ${JSON.stringify(calls)}`);
  process.stdout.write(`call ${JSON.stringify({ ok: made.ok, result: made.result, error: made.error })}\n`);
  if (!made.ok) fail(`the call failed: ${made.error}`);
  // The scenario's authorization server issues `cc-token-<time>`: no trace may hold one.
  if (OAUTH.has(scenario)) {
    if (JSON.stringify(trace.body).includes("cc-token-")) fail("the trace holds the access token");
    const auth = Object.entries(made.request?.headers ?? {}).find(([name]) => name.toLowerCase() === "authorization");
    if (!auth || auth[1] !== "[secret]")
      fail(`the call's Authorization header is not masked: ${JSON.stringify(made.request)}`);
  }
  if (!String(made.result).includes(call.expect)) fail(`the result does not say '${call.expect}': ${made.result}`);
}

/**
 * The scenario's client credentials (MCP_CONFORMANCE_CONTEXT): the secret is provisioned as a
 * file in the server's INSIKA_SECRETS_DIR (read at call time) and referenced, never sent literally.
 */
function oauthAuth(instance) {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
  if (!context.client_id || !context.client_secret) fail("the scenario context has no client_id/client_secret");
  const dir = need("INSIKA_SECRETS_DIR");
  const secretName = `${instance}_client_secret`;
  fs.writeFileSync(path.join(dir, secretName), context.client_secret, { mode: 0o600 });
  return {
    type: "oauth_client_credentials",
    client_id: context.client_id,
    client_secret: `{{secret.${secretName}}}`,
  };
}

// Exit at once: the HTTP client's idle keep-alive sockets would hold the process (and the runner) for seconds.
main().then(
  () => process.exit(0),
  (e) => fail(e instanceof Error ? (e.stack ?? e.message) : String(e)),
);
