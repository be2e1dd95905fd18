/**
 * The JSON turn has two entries in the server: lib/api/node-turn-route.ts answers
 * `POST /v1/sessions/<id>/turns` on Node's own request before Next routes it, and the route
 * file answers whatever that one leaves to Next. A session id written with a percent-encoded
 * letter (`%73es_…` for `ses_…`) is one the Node route does not take, so every case here is
 * sent both ways and must get the same answer: the same status, headers that matter and body.
 */
import net from "node:net";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

/** The same path with the session id's first letter percent-encoded: the route file's entry. */
const viaNext = (sessionId: string) =>
  `/v1/sessions/%${sessionId.charCodeAt(0).toString(16)}${sessionId.slice(1)}/turns`;
const viaNode = (sessionId: string) => `/v1/sessions/${sessionId}/turns`;

/** One raw HTTP/1.1 exchange on its own connection: what the server answers to bytes a client library would not send. */
function rawExchange(port: number, request: string | Buffer, after?: (socket: net.Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => (answer += d));
    socket.on("error", (error) => (answer ? resolve(answer) : reject(error)));
    socket.on("close", () => resolve(answer));
    socket.write(request, () => after?.(socket));
  });
}

describe("the JSON turn's two entries answer alike", () => {
  let server: TestServer;
  let sessionId: string;
  let readOnlyKey: string;

  beforeAll(async () => {
    const scripts = tempDir("insika-scripts-");
    fs.writeFileSync(
      path.join(scripts, "entries.json"),
      JSON.stringify({
        turns: { one: [[{ type: "text", text: "first" }]], two: [[{ type: "text", text: "second" }]] },
      }),
    );
    server = await startServer({ env: { INSIKA_SCRIPTED_DIR: scripts } });
    await server.api("PUT", "/v1/agents/entries", { model: { provider: "scripted", model: "entries" } });
    sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "entries" })).body.id;
    readOnlyKey = (await server.api("POST", "/v1/keys", { name: "reader", scopes: ["traces:read"] })).body.key;
  });
  afterAll(() => server?.stop());

  it("runs a turn either way, and Next's own headers show which entry answered", async () => {
    const node = await server.api("POST", viaNode(sessionId), { message: "one" });
    const next = await server.api("POST", viaNext(sessionId), { message: "two" });
    expect([node.status, node.body.status, node.body.content]).toEqual([200, "completed", "first"]);
    expect([next.status, next.body.status, next.body.content]).toEqual([200, "completed", "second"]);
    expect(Object.keys(node.body).sort()).toEqual(Object.keys(next.body).sort());
    for (const res of [node, next]) expect(res.headers.get("content-type")).toBe("application/json");
    // Next adds its router's Vary to every route response; the Node route has no router to vary on.
    expect(next.headers.get("vary")).toContain("rsc");
    expect(node.headers.get("vary")).toBeNull();
    const transcript = await server.api("GET", `/v1/sessions/${sessionId}`);
    expect(transcript.body.messages.map((m: { content: string }) => m.content)).toEqual([
      "one",
      "first",
      "two",
      "second",
    ]);
  });

  /** A POST with the admin token unless `headers` says otherwise; the body as given, bytes and all. */
  async function post(pathname: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}${pathname}`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json", ...headers },
      body,
    });
    return { status: res.status, body: await res.json(), headers: res.headers };
  }

  const deep = JSON.stringify({ message: "x", deep: JSON.parse("[".repeat(80) + "]".repeat(80)) });
  const refusals: Array<[string, { body?: string | Uint8Array<ArrayBuffer>; key?: string; session?: string }, number]> =
    [
      ["no key", { key: "" }, 401],
      ["an unknown key", { key: "Bearer insk_nope" }, 401],
      ["a key without turns:run", { key: "READ_ONLY" }, 403],
      ["an unknown session", { session: "ses_nope" }, 404],
      ["a body that is not JSON", { body: "{nope" }, 400],
      ["an empty body", { body: "" }, 400],
      ["a body that is not UTF-8", { body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }, 400],
      ["a body nested too deep", { body: deep }, 400],
      ["a field the turn does not take", { body: JSON.stringify({ message: "x", model: "gpt" }) }, 422],
      ["a message that is not a string", { body: JSON.stringify({ message: 7 }) }, 422],
      ["a message of 200,001 characters", { body: JSON.stringify({ message: "x".repeat(200_001) }) }, 422],
      ["a body over the 2 MiB cap", { body: JSON.stringify({ message: "x".repeat(2 * 1024 * 1024) }) }, 413],
    ];
  for (const [what, input, status] of refusals) {
    it(`refuses ${what} with ${status} and the same envelope`, async () => {
      const session = input.session ?? sessionId;
      const key = input.key === "READ_ONLY" ? `Bearer ${readOnlyKey}` : input.key;
      const headers: Record<string, string> = key === undefined ? {} : { authorization: key };
      const body = input.body ?? JSON.stringify({ message: "one" });
      const node = await post(viaNode(session), body, headers);
      const next = await post(viaNext(session), body, headers);
      expect([node.status, next.status]).toEqual([status, status]);
      // A message that names the path names it as sent.
      const asSentToNext = JSON.stringify(node.body).replaceAll(viaNode(session), viaNext(session));
      expect(asSentToNext).toEqual(JSON.stringify(next.body));
      expect(node.body.error.code).toBeTruthy();
    });
  }

  it("refuses a declared Content-Length over the cap before reading, and closes the connection", async () => {
    const answer = await rawExchange(
      server.port,
      `POST ${viaNode(sessionId)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n{"message":"`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(answer).toContain('"code":"payload_too_large"');
  });

  it("stops reading a chunked body at the cap and answers 413 while the client is still sending", async () => {
    const pathname = viaNode(sessionId);
    const chunk = Buffer.alloc(256 * 1024, 0x78);
    const answer = await rawExchange(
      server.port,
      `POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\n` +
        `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      (socket) => {
        // 3 MiB in 256 KiB chunks, never ended: the answer must not wait for the end.
        let sent = 0;
        const more = () => {
          if (socket.destroyed || sent >= 12) return;
          sent++;
          socket.write(`${chunk.length.toString(16)}\r\n`);
          socket.write(chunk);
          socket.write("\r\n", more);
        };
        more();
      },
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain("connection: close");
  });

  it("keeps serving after a client hangs up part-way through a body, and logs no error for it", async () => {
    const pathname = viaNode(sessionId);
    await rawExchange(
      server.port,
      `POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"message":`,
      (socket) => socket.destroy(),
    );
    const after = await server.api("POST", viaNode("ses_nope"), { message: "one" });
    expect(after.status).toBe(404);
    expect(server.output()).not.toMatch(/unhandled|Error:/);
  });
});
