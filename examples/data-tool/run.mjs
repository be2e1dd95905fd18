// The data-tool example, end to end, through the public /v1 API (docs/api.md):
//   1. start the tiny callback backend (backend.mjs) on loopback;
//   2. reach an Insika: a running one (--url, --token) or a throwaway one started from the build;
//   3. apply manifest.json (POST /v1/tools/manifest);
//   4. create an agent on the offline `demo` model that may use the tool (PUT /v1/agents/:id);
//   5. run two turns: the first books a slot (the tool's halt_when ends the turn, `say` publishes
//      the backend's message), the second asks for the same slot (no halt: the model answers);
//   6. print each call's verdict from the trace (GET /v1/sessions/:id/trace) and exit 1 unless
//      every verdict is the expected one, so CI can run it.
//
//   node examples/data-tool/run.mjs                      # starts its own Insika (npm run build first)
//   node examples/data-tool/run.mjs --url http://127.0.0.1:3000 --token <token> [--backend-port 4599]
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startCallbackBackend } from "./backend.mjs";
import { startInsika } from "./start-insika.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const AGENT_ID = "data-tool-example";
const SECRET_ENV = "INSIKA_SECRET_CALLBACKS_API_KEY"; // {{secret.callbacks_api_key}} reads this variable
const URL_ENV = "CALLBACKS_BACKEND_URL"; // {{env.CALLBACKS_BACKEND_URL}}, substituted when the manifest is applied
const DEFAULT_URL_MODE_BACKEND_PORT = 4599;
const USAGE = `usage: node examples/data-tool/run.mjs [--url URL --token TOKEN] [--backend-port PORT]
  without --url: starts its own Insika from the build (run \`npm run build\` first)
  --token may also come from INSIKA_API_TOKEN; with --url, ${SECRET_ENV} must hold the secret the running Insika has`;

const cleanups = [];
async function cleanUp() {
  while (cleanups.length > 0)
    await cleanups
      .pop()()
      .catch((e) => console.error(`cleanup: ${e.message}`));
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => cleanUp().then(() => process.exit(130)));

try {
  process.exitCode = await main(readOptions());
} catch (error) {
  console.error(`\nerror: ${error.message}`);
  process.exitCode = error.usage ? 2 : 1;
} finally {
  await cleanUp();
}

async function main(options) {
  // The secret exists only in memory and in environments: the backend's check and Insika's
  // INSIKA_SECRET_CALLBACKS_API_KEY. The stored tool keeps the {{secret.callbacks_api_key}} reference.
  const secret = options.url
    ? process.env[SECRET_ENV]
    : (process.env[SECRET_ENV] ?? crypto.randomBytes(24).toString("base64url"));
  if (!secret) throw usageError(`with --url, set ${SECRET_ENV} to the secret the running Insika was started with`);

  const backend = await startCallbackBackend({
    secret,
    port: options.backendPort ?? (options.url ? DEFAULT_URL_MODE_BACKEND_PORT : 0),
  });
  cleanups.push(() => backend.close());
  console.log(`backend   ${backend.url}/callbacks (checks Authorization and X-Chat-Id)`);

  const insika = options.url ? { url: options.url, token: options.token } : await startOwnInsika(backend, secret);
  const api = apiClient(insika.url, insika.token);

  const manifest = JSON.parse(fs.readFileSync(path.join(HERE, "manifest.json"), "utf8"));
  const applied = await api("POST", "/v1/tools/manifest", manifest);
  if (applied.body.errors.length > 0) {
    for (const e of applied.body.errors) console.error(`manifest  tools[${e.index}] ${e.tool ?? "?"}: ${e.error}`);
    if (options.url) console.error(runningInsikaNeeds(backend.port));
    throw new Error("the manifest was not applied");
  }
  console.log(`manifest  created: [${applied.body.created.join(", ")}], updated: [${applied.body.updated.join(", ")}]`);

  await api("PUT", `/v1/agents/${AGENT_ID}`, {
    name: "Data tool example",
    instructions: "Book support callbacks with book_callback.",
    model: { provider: "demo", model: "demo" },
    tools_allow: ["book_callback"],
  });
  const tools = (await api("GET", `/v1/agents/${AGENT_ID}/tools`)).body;
  console.log(`agent     ${AGENT_ID} (demo model), offered: [${tools.offered.join(", ")}]`);
  if (!tools.offered.includes("book_callback"))
    throw new Error("book_callback is not offered to the agent: see GET /v1/tools for a dropped tool");

  const session = (await api("POST", "/v1/sessions", { agent_id: AGENT_ID })).body;
  console.log(`session   ${session.id}`);

  // The demo model calls the tool the message names, with its key=value pairs as arguments;
  // `quiet` stops it writing a lead-in, so the halted turn publishes the tool's `say`.
  const first = await runTurn(api, session.id, "quiet book_callback slot=tue-10:00");
  const second = await runTurn(api, session.id, "book_callback slot=tue-10:00");

  const trace = (await api("GET", `/v1/sessions/${session.id}/trace`)).body;
  const checks = [
    ...verdict(1, first, callOf(trace, first.turn_id), {
      turnStatus: "halted",
      halted: true,
      customerGot: (content) => content.startsWith("You're booked for a callback at tue-10:00"),
      customerGotMeans: "the backend's own message, through say",
    }),
    ...verdict(2, second, callOf(trace, second.turn_id), {
      turnStatus: "completed",
      halted: false,
      customerGot: (content) => content.includes("SLOT_TAKEN"),
      customerGotMeans: "the model's answer, which reads the SLOT_TAKEN result",
    }),
    check(
      "the backend saw the right API key on every call",
      backend.requests.length === 2 && backend.requests.every((r) => r.authorized),
    ),
    check(
      "{{ctx.chat_id}} carried the session id",
      backend.requests.every((r) => r.chat_id === session.id),
    ),
    check("the trace never shows the secret", !JSON.stringify(trace).includes(secret)),
  ];
  const failed = checks.filter((c) => !c.ok);
  console.log(
    failed.length === 0 ? "\nOK: every verdict is the expected one." : `\nFAILED: ${failed.length} check(s) above.`,
  );
  return failed.length === 0 ? 0 : 1;
}

async function startOwnInsika(backend, secret) {
  const insika = await startInsika({
    root: ROOT,
    env: {
      [SECRET_ENV]: secret,
      [URL_ENV]: backend.url,
      // {{env.*}} in a manifest reads only the variables the operator exposes.
      INSIKA_MANIFEST_ENV: URL_ENV,
      // Strict egress except for this one backend: plain http, this host and port only.
      INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
      INSIKA_EGRESS_ALLOW_HTTP: "1",
    },
  });
  cleanups.push(() => insika.stop());
  console.log(`insika    ${insika.url} (started from the build; data in ${insika.dataDir}, removed at exit)`);
  return insika;
}

async function runTurn(api, sessionId, message) {
  const turn = (await api("POST", `/v1/sessions/${sessionId}/turns`, { message })).body;
  return { ...turn, message };
}

function callOf(trace, turnId) {
  return trace.turns.find((t) => t.id === turnId)?.calls.find((c) => c.tool === "book_callback");
}

/** Prints one turn's call as the trace records it, and checks it against what is expected. */
function verdict(n, turn, call, expected) {
  console.log(`\nturn ${n}    you: ${JSON.stringify(turn.message)}`);
  if (!call)
    return [
      check(`turn ${n} called book_callback`, false, `status ${turn.status}, content ${JSON.stringify(turn.content)}`),
    ];
  const headers = Object.entries(call.request?.headers ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
  console.log(`  call    ${call.tool} ${JSON.stringify(call.arguments)}`);
  console.log(`  sent    ${call.request ? `${call.request.method} ${call.request.url}  (${headers})` : "nothing"}`);
  if (call.egress)
    console.log(
      `  egress  ${call.egress.verdict} (${call.egress.rule})${call.egress.hint ? `: ${call.egress.hint}` : ""}`,
    );
  console.log(
    `  verdict status ${call.status}, ok ${call.ok}, halted ${call.halted ?? false}${call.halt_reason ? ` (${call.halt_reason})` : ""}${call.error ? `, error: ${call.error}` : ""}`,
  );
  console.log(`  turn    ${turn.status}; the customer got: ${JSON.stringify(turn.content)}`);
  return [
    check(`turn ${n}: the call reached the backend (status 200, ok)`, call.status === 200 && call.ok === true),
    check(
      `turn ${n}: halted ${expected.halted}`,
      (call.halted ?? false) === expected.halted && turn.status === expected.turnStatus,
    ),
    check(
      `turn ${n}: the customer got ${expected.customerGotMeans}`,
      typeof turn.content === "string" && expected.customerGot(turn.content),
    ),
    check(`turn ${n}: the trace masks the Authorization header`, call.request?.headers?.Authorization === "[secret]"),
  ];
}

function check(what, ok, detail) {
  console.log(`${ok ? "  ✓" : "  ✗"} ${what}${detail ? `: ${detail}` : ""}`);
  return { what, ok };
}

/** An authenticated JSON client; a non-2xx answer throws with the API's error envelope. */
function apiClient(base, token) {
  return async (method, pathname, body) => {
    const res = await fetch(`${base}${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((e) => {
      throw new Error(`${method} ${pathname}: cannot reach Insika at ${base} (${e.cause?.code ?? e.message})`);
    });
    const text = await res.text();
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const e = parsed?.error;
      throw new Error(
        `${method} ${pathname}: HTTP ${res.status}${e ? ` ${e.code}: ${e.message}` : ` ${text.slice(0, 200)}`}`,
      );
    }
    if (parsed === undefined) throw new Error(`${method} ${pathname}: the answer is not JSON: ${text.slice(0, 200)}`);
    return { status: res.status, body: parsed };
  };
}

function runningInsikaNeeds(backendPort) {
  return [
    "The running Insika needs, in its environment (then restart it):",
    `  ${SECRET_ENV}=<the value set here>`,
    `  ${URL_ENV}=http://127.0.0.1:${backendPort} INSIKA_MANIFEST_ENV=${URL_ENV}`,
    `  INSIKA_EGRESS_HOSTS=127.0.0.1:${backendPort} INSIKA_EGRESS_ALLOW_HTTP=1`,
  ].join("\n");
}

function readOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: "string" },
        token: { type: "string" },
        "backend-port": { type: "string" },
        help: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw usageError(error.message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const options = { url: undefined, token: values.token ?? process.env.INSIKA_API_TOKEN, backendPort: undefined };
  if (values.url !== undefined) {
    let url;
    try {
      url = new URL(values.url);
    } catch {
      throw usageError(`--url is not a URL: ${values.url}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw usageError("--url must be http(s)");
    let prefix = url.pathname;
    while (prefix.endsWith("/")) prefix = prefix.slice(0, -1);
    options.url = url.origin + prefix;
    if (!options.token) throw usageError("--url needs --token (or INSIKA_API_TOKEN)");
  } else if (values.token !== undefined) {
    throw usageError("--token is for --url: without --url the example starts its own Insika");
  }
  if (values["backend-port"] !== undefined) {
    const port = Number(values["backend-port"]);
    if (!/^\d+$/.test(values["backend-port"]) || port < 1 || port > 65535)
      throw usageError(`--backend-port must be 1-65535, got ${values["backend-port"]}`);
    options.backendPort = port;
  }
  return options;
}

function usageError(message) {
  return Object.assign(new Error(`${message}\n${USAGE}`), { usage: true });
}
