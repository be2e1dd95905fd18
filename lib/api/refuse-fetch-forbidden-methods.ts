/**
 * Answers TRACE before Next sees it: Next builds a fetch `Request` for every request, and
 * fetch forbids TRACE (and CONNECT/TRACK, which Node's parser never hands over as
 * requests), so Next would log an exception and answer a bare 500. We answer 405 in the
 * error envelope instead. Installed once per server process, from instrumentation.ts.
 */
import http from "node:http";
import { errorBody } from "./errors";

const FORBIDDEN = new Set(["TRACE", "TRACK", "CONNECT"]);
let installed = false;

export function refuseFetchForbiddenMethods(): void {
  if (installed) return;
  installed = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      if (FORBIDDEN.has(req.method ?? "")) {
        const message = `method ${req.method} is not allowed`;
        // The OpenAI-compatible routes answer in OpenAI's error shape.
        const openAI = /^\/v1\/(chat\/completions|responses)(\?|\/|$)/.test(req.url ?? "");
        const body = JSON.stringify(
          openAI
            ? { error: { message, type: "invalid_request_error", param: null, code: "method_not_allowed" } }
            : errorBody("method_not_allowed", message),
        );
        res.writeHead(405, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          connection: "close",
        });
        res.end(body);
        // Discard any body; a client that hangs up mid-way must not become an uncaught error.
        req.on("error", () => undefined);
        req.resume();
        return true;
      }
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof emit;
}
