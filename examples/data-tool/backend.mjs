// The tiny backend the example's data tool calls: a "callback booking" service on loopback,
// plain node:http, no dependencies. Run it alone with
//   INSIKA_SECRET_CALLBACKS_API_KEY=... node examples/data-tool/backend.mjs [port]
// or let run.mjs start it in-process.
//
// POST /callbacks  {"slot": "tue-10:00"}
//   Authorization: Bearer <the secret>   (else 401)
//   X-Chat-Id: <the Insika session>      (else 400; Insika fills it from {{ctx.chat_id}})
// The first booking of a slot answers {"status":"BOOKED","message":...}: the backend has "texted
// the customer" itself, so the tool's halt_when ends the turn and `say` publishes that message.
// Booking the same slot again answers {"status":"SLOT_TAKEN",...}: no halt, the model explains.
import crypto from "node:crypto";
import http from "node:http";
import { pathToFileURL } from "node:url";

const MAX_BODY_BYTES = 16 * 1024;
const SLOT = /^[a-z]{3}-\d{2}:\d{2}$/;

/**
 * Starts the backend on 127.0.0.1. `secret` is the API key it expects; `port` 0 picks a free one.
 * Resolves to { url, port, requests, close() }; `requests` lists what each call carried (the
 * Authorization value is never kept, only whether it matched).
 */
export function startCallbackBackend({ secret, port = 0 }) {
  if (typeof secret !== "string" || secret === "")
    throw new Error("startCallbackBackend: a non-empty secret is required");
  const expected = crypto.createHash("sha256").update(`Bearer ${secret}`).digest();
  const booked = new Map(); // slot -> booking id
  const requests = [];

  const server = http.createServer((req, res) => {
    const reply = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callbacks") return reply(404, { error: `no route ${url.pathname}` });
    if (req.method !== "POST") return reply(405, { error: "use POST" });

    // Compare digests, not strings, so the check takes the same time whatever was sent.
    const sent = crypto
      .createHash("sha256")
      .update(req.headers.authorization ?? "")
      .digest();
    const authorized = crypto.timingSafeEqual(sent, expected);
    const chatId = req.headers["x-chat-id"];
    requests.push({ authorized, chat_id: typeof chatId === "string" ? chatId : null });

    readBody(req, (error, text) => {
      if (error) return reply(error.status, { error: error.message });
      if (!authorized) return reply(401, { error: "missing or wrong API key" });
      if (typeof chatId !== "string" || chatId === "") return reply(400, { error: "X-Chat-Id header is required" });
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        return reply(400, { error: "body must be JSON" });
      }
      const slot = body !== null && typeof body === "object" ? body.slot : undefined;
      if (typeof slot !== "string" || !SLOT.test(slot)) {
        return reply(422, { error: "slot must look like tue-10:00" });
      }
      if (booked.has(slot)) {
        return reply(200, { status: "SLOT_TAKEN", message: `Sorry, ${slot} is already taken.` });
      }
      const id = `cb_${booked.size + 1}`;
      booked.set(slot, id);
      reply(200, {
        status: "BOOKED",
        booking_id: id,
        message: `You're booked for a callback at ${slot}. We've texted you a confirmation.`,
      });
    });
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const actual = server.address().port;
      resolve({
        url: `http://127.0.0.1:${actual}`,
        port: actual,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** Reads the whole body as UTF-8, refusing more than MAX_BODY_BYTES (413). */
function readBody(req, callback) {
  const chunks = [];
  let size = 0;
  let failed = false;
  req.on("data", (chunk) => {
    if (failed) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      failed = true;
      callback({ status: 413, message: `body over ${MAX_BODY_BYTES} bytes` });
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (!failed) callback(null, Buffer.concat(chunks).toString("utf8"));
  });
  req.on("error", () => {
    failed = true;
  });
}

// Standalone: `node examples/data-tool/backend.mjs [port]`, the secret from the environment.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const secret = process.env.INSIKA_SECRET_CALLBACKS_API_KEY;
  if (!secret) {
    console.error("set INSIKA_SECRET_CALLBACKS_API_KEY (the API key this backend expects)");
    process.exit(2);
  }
  const port = Number(process.argv[2] ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`port must be an integer 0-65535, got ${process.argv[2]}`);
    process.exit(2);
  }
  const backend = await startCallbackBackend({ secret, port });
  console.log(`callback backend listening on ${backend.url}`);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => backend.close().then(() => process.exit(0)));
}
