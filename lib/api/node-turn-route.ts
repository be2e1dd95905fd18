/**
 * POST /v1/sessions/:id/turns for a client that waits for one JSON answer, served on Node's
 * own request and response before Next.js routes it: scripts/serve.mjs offers every request to
 * `serveOnNode` first (server-hooks.ts; instrumentation.ts registers it). Why: Next's router,
 * the web Request and Response it builds, and its per-request stores cost more CPU than the
 * rest of the turn (docs/decisions.md, "The JSON turn is answered before Next's router"). Everything else is the route's own, from
 * json-turn.ts and route.ts: the key and its scope, the body cap, the JSON and schema checks,
 * the turn, the answer and the error envelope. A request this does not take plainly — an SSE
 * client, another method, a path that is not /v1/sessions/<id>/turns with a plain id — goes to
 * Next and its route file, which serves the same answers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb } from "@/db/client";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { BODY_LIMITS } from "./body-limits";
import { endAfterLinger } from "./end-after-linger";
import { jsonTurn, TURN_REQUEST, TURN_SCOPES } from "./json-turn";
import { parseJsonBytes } from "./read-json-body";
import { readNodeBody } from "./read-node-body";
import { authorize, errorReply, parseWith } from "./route";

/** A plain session id: no percent-encoding, dot or slash for Next to normalize first. */
const TURN_PATH = /^\/v1\/sessions\/([A-Za-z0-9_-]{1,200})\/turns(?:\?|$)/;

/** Takes the request (true) when it is a JSON turn; false leaves it to Next. */
export function serveOnNode(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "POST") return false;
  const sessionId = TURN_PATH.exec(req.url ?? "")?.[1];
  if (sessionId === undefined || req.headers.accept?.includes("text/event-stream")) return false;
  void answer(req, res, sessionId);
  return true;
}

async function answer(req: IncomingMessage, res: ServerResponse, sessionId: string): Promise<void> {
  let reply: { status: number; body: unknown; headers: Record<string, string> };
  try {
    const db = getDb(getEnv());
    const principal = await authorize(
      db,
      req.headers.authorization,
      TURN_SCOPES,
      `POST /v1/sessions/${sessionId}/turns`,
    );
    const { message } = parseWith(TURN_REQUEST, parseJsonBytes(await readNodeBody(req, BODY_LIMITS.turn)));
    reply = { status: 200, body: await jsonTurn(db, sessionId, message, principal), headers: {} };
  } catch (error) {
    reply = errorReply(error);
  }
  try {
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      ...reply.headers,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      // A body that has not fully arrived (a 413, a refusal before reading) is never read to its
      // end: the connection cannot carry another request, and closes once the client is done
      // sending (end-after-linger.ts).
      ...(req.complete ? {} : { connection: "close" }),
    });
    if (req.complete) res.end(text);
    else endAfterLinger(req, res, text);
  } catch (error) {
    log.error("answering a turn failed", describeError(error));
    res.destroy();
  }
}
