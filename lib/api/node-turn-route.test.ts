import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { serveOnNode } from "./node-turn-route";

/** A request serveOnNode must leave to Next: it returns false before it reads or answers anything. */
function leftToNext(method: string, url: string, accept?: string): boolean {
  const req = { method, url, headers: accept === undefined ? {} : { accept } } as unknown as IncomingMessage;
  const untouchable = new Proxy({} as ServerResponse, {
    get: () => {
      throw new Error("the response was touched");
    },
  });
  return !serveOnNode(req, untouchable);
}

describe("serveOnNode", () => {
  it("leaves to Next every request that is not plainly a JSON turn", () => {
    for (const [method, url, accept] of [
      ["GET", "/v1/sessions/ses_1/turns"],
      ["PUT", "/v1/sessions/ses_1/turns"],
      ["POST", "/v1/sessions/ses_1/turns", "text/event-stream"],
      ["POST", "/v1/sessions/ses_1/turns", "application/json, text/event-stream"],
      ["POST", "/v1/sessions/ses_1/turns/"],
      ["POST", "/v1/sessions/ses_1/turnsx"],
      ["POST", "/v1/sessions/%73es_1/turns"],
      ["POST", "/v1/sessions/ses.1/turns"],
      ["POST", "/v1/sessions//turns"],
      ["POST", "/v1/sessions/a/b/turns"],
      ["POST", "//v1/sessions/ses_1/turns"],
      ["POST", "/v1/sessions/ses_1/../x/turns"],
      ["POST", `/v1/sessions/${"a".repeat(201)}/turns`],
      ["POST", "http://evil.example/v1/sessions/ses_1/turns"],
    ] as const)
      expect([method, url, accept, leftToNext(method, url, accept)]).toEqual([method, url, accept, true]);
  });
});
