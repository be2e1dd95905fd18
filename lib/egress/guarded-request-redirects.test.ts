/**
 * Redirects and DNS pinning, against loopback servers. Public and private
 * addresses appear only as stubbed DNS answers; whenever one could be dialed the
 * recording connector refuses it without opening a socket.
 */
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { guardedRequest } from "./guarded-request";
import { parsePosture } from "./posture";
import type { LoopbackServer } from "@/test/support/loopback-server";
import { harness, recordingConnector, stubResolver } from "@/test/support/egress-doubles";

const DEV = parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_ALLOW_PRIVATE: "1" });
const { server, dispatcher, send, cleanup } = harness();
afterEach(cleanup);

describe("DNS pinning", () => {
  it("connects to the vetted answer, not a second lookup (rebinding: public, then loopback)", async () => {
    // The public answer is never dialed: the recording connector refuses it without a socket.
    const { resolver, calls } = stubResolver((_h, nth) => (nth === 1 ? ["93.184.216.34"] : ["127.0.0.1"]));
    const { connector, attempts } = recordingConnector({ loopback: true });
    const posture = parsePosture({});
    const d = dispatcher(posture, { connector });
    const first = await guardedRequest(
      { method: "GET", url: "https://rebind.example/", timeoutMs: 5_000 },
      { posture, resolver, dispatcher: d },
    );
    expect(first).toMatchObject({ ok: false, kind: "network" });
    expect(calls).toEqual(["rebind.example"]);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ hostname: "rebind.example", vetted: ["93.184.216.34"] });
    // The next request asks DNS again, gets the loopback answer, and is refused before any connect.
    const second = await guardedRequest(
      { method: "GET", url: "https://rebind.example/", timeoutMs: 5_000 },
      { posture, resolver, dispatcher: d },
    );
    expect(second).toMatchObject({ ok: false, kind: "blocked", egress: { rule: "private-address" } });
    expect(calls).toHaveLength(2);
    expect(attempts).toHaveLength(1);
  });

  it("sends to the vetted loopback answer and re-checks each redirect hop (rebinding to metadata)", async () => {
    const s = await server((req, res) => {
      if (req.url === "/start") {
        res.writeHead(302, { location: "/next" }).end();
      } else res.end("should not be reached");
    });
    const { resolver, calls } = stubResolver((_h, nth) => (nth === 1 ? ["127.0.0.1"] : ["169.254.169.254"]));
    const { connector, attempts } = recordingConnector({ loopback: true });
    const d = dispatcher(DEV, { connector });
    const url = `http://rebind.example:${s.port}/start`;
    const r = await guardedRequest({ method: "GET", url, timeoutMs: 5_000 }, { posture: DEV, resolver, dispatcher: d });
    expect(r).toMatchObject({ ok: false, kind: "blocked", egress: { rule: "always-blocked" }, status: 302 });
    expect(r.ok === false && r.error).toBe(
      "destination blocked: rebind.example resolves to 169.254.169.254, a cloud metadata service (AWS, GCP, Azure, OpenStack, ...)",
    );
    expect(s.requests.map((q) => q.url)).toEqual(["/start"]);
    expect(calls).toEqual(["rebind.example", "rebind.example"]);
    expect(attempts).toEqual([
      { hostname: "rebind.example", port: String(s.port), protocol: "http:", vetted: ["127.0.0.1"] },
    ]);
  });

  it("the default connector's lookup returns the pinned address (http and https)", async () => {
    // Listen on 127.0.0.2 only: the system's answer for "localhost" (127.0.0.1/::1) would miss it.
    const s = await server((_req, res) => res.end("pinned"), "127.0.0.2");
    const d = dispatcher(DEV);
    const release = d.pin("localhost", s.port, [{ address: "127.0.0.2", family: 4 }]);
    try {
      const res = await request(`http://localhost:${s.port}/`, { dispatcher: d.agent });
      expect(await res.body.text()).toBe("pinned");
      // TLS goes through the same lookup: the TCP connection lands on 127.0.0.2 (the handshake then fails).
      const before = s.connections();
      await expect(request(`https://localhost:${s.port}/`, { dispatcher: d.agent })).rejects.toThrow();
      expect(s.connections()).toBe(before + 1);
    } finally {
      release();
    }
  });

  it("a pin holds for its own port only: a host pinned on two ports keeps both answers apart", async () => {
    // A host:port allowlist entry vets one port; addresses vetted for another port of the
    // same name must not serve it. Each server listens on its own loopback address only.
    const a = await server((_req, res) => res.end("a"), "127.0.0.2");
    const b = await server((_req, res) => res.end("b"), "127.0.0.3");
    const d = dispatcher(DEV);
    d.pin("localhost", a.port, [{ address: "127.0.0.2", family: 4 }])();
    d.pin("localhost", b.port, [{ address: "127.0.0.3", family: 4 }])();
    // Released pins, as for a reconnect undici makes on its own; the later pin did not replace the first.
    const first = await request(`http://localhost:${a.port}/`, { dispatcher: d.agent });
    expect(await first.body.text()).toBe("a");
    const second = await request(`http://localhost:${b.port}/`, { dispatcher: d.agent });
    expect(await second.body.text()).toBe("b");
    // A port nobody vetted is refused, though the name is pinned on two others.
    const other = b.port === 65535 ? b.port - 1 : b.port + 1;
    await expect(request(`http://localhost:${other}/`, { dispatcher: d.agent })).rejects.toThrow(
      `no vetted address pinned for localhost:${other}`,
    );
  });

  it("refuses to connect a host nobody pinned", async () => {
    const s = await server((_req, res) => res.end());
    const d = dispatcher(DEV);
    await expect(request(`${s.origin}/`, { dispatcher: d.agent })).rejects.toThrow(/no vetted address/);
    expect(s.connections()).toBe(0);
  });
});

describe("redirects", () => {
  it("drops Authorization, Cookie and secret headers on a cross-origin hop", async () => {
    const b = await server((_req, res) => res.end("b"));
    const a = await server((req, res) => {
      if (req.url === "/same") res.writeHead(307, { location: "/landing" }).end();
      else if (req.url === "/landing") res.writeHead(302, { location: `${b.origin}/b` }).end();
      else res.writeHead(302, { location: "/same" }).end();
    });
    const headers = { authorization: "Bearer s3cret", cookie: "sid=1", "X-Api-Key": "k-123", "x-trace": "keep" };
    const r = await send({ url: `${a.origin}/start`, headers, secretHeaderNames: ["x-api-key"] }, DEV);
    expect(r.ok).toBe(true);
    expect(r.ok && r.finalUrl).toBe(`${b.origin}/b`);
    expect(r.hops.map((h) => h.status)).toEqual([302, 307, 302, 200]);
    // Same-origin hops keep them...
    for (const seen of a.requests) {
      expect(seen.headers).toMatchObject({ authorization: "Bearer s3cret", cookie: "sid=1", "x-api-key": "k-123" });
    }
    // ...the other origin never sees them.
    const atB = b.requests[0]!.headers;
    expect(atB["x-trace"]).toBe("keep");
    expect(atB.authorization).toBeUndefined();
    expect(atB.cookie).toBeUndefined();
    expect(atB["x-api-key"]).toBeUndefined();
  });

  it("keeps secrets dropped when the chain comes back to the first origin", async () => {
    let aOrigin = "";
    const b = await server((_req, res) => res.writeHead(302, { location: `${aOrigin}/back` }).end());
    const a = await server((req, res) =>
      req.url === "/back" ? res.end("back") : res.writeHead(302, { location: b.origin }).end(),
    );
    aOrigin = a.origin;
    const r = await send(
      { url: `${a.origin}/go`, headers: { "x-api-key": "k" }, secretHeaderNames: ["X-API-KEY"] },
      DEV,
    );
    expect(r.ok).toBe(true);
    expect(a.requests.map((q) => q.headers["x-api-key"])).toEqual(["k", undefined]);
  });

  it.each([
    [303, "POST", "GET", ""],
    [302, "POST", "GET", ""],
    [301, "POST", "GET", ""],
    [307, "POST", "POST", '{"x":1}'],
    [308, "PUT", "PUT", '{"x":1}'],
    [303, "PUT", "GET", ""],
    [302, "PUT", "PUT", '{"x":1}'],
  ])("%i after %s continues as %s", async (status, method, nextMethod, nextBody) => {
    const s = await server((req, res) =>
      req.url === "/from" ? res.writeHead(status, { location: "/to" }).end() : res.end(),
    );
    const r = await send(
      { url: `${s.origin}/from`, method, body: '{"x":1}', headers: { "content-type": "application/json" } },
      DEV,
    );
    expect(r.ok).toBe(true);
    const to = s.requests[1]!;
    expect([to.method, to.body]).toEqual([nextMethod, nextBody]);
    expect(to.headers["content-type"]).toBe(nextBody ? "application/json" : undefined);
  });

  it("follows at most 5 redirects", async () => {
    const s = await server((req, res) => {
      const n = Number(req.url!.slice(1));
      res.writeHead(302, { location: `/${n + 1}` }).end();
    });
    const r = await send({ url: `${s.origin}/0` }, DEV);
    expect(r).toMatchObject({ ok: false, kind: "too-many-redirects", status: 302 });
    expect(s.requests).toHaveLength(6);
    const five = await server((req, res) => {
      const n = Number(req.url!.slice(1));
      if (n < 5) res.writeHead(301, { location: `/${n + 1}` }).end();
      else res.end("done");
    });
    const ok = await send({ url: `${five.origin}/0` }, DEV);
    expect(ok.ok && ok.body.toString()).toBe("done");
    expect(ok.hops).toHaveLength(6);
  });

  it.each([
    ["another loopback port", (b: LoopbackServer) => `${b.origin}/`, "not-allowlisted"],
    ["an RFC 1918 address", () => "http://10.0.0.1/", "not-allowlisted"],
    ["the metadata address", () => "http://169.254.169.254/latest/meta-data/", "always-blocked"],
    ["IPv4-mapped metadata", () => "http://[::ffff:169.254.169.254]/", "always-blocked"],
    ["a metadata name", () => "http://metadata.google.internal/", "metadata-host"],
    ["a backslash URL", () => "http:\\\\10.0.0.1\\", "backslash"],
    ["file:", () => "file:///etc/passwd", "scheme"],
  ])("refuses a redirect into %s without connecting", async (_label, target, rule) => {
    const b = await server((_req, res) => res.end("b"));
    const a = await server((_req, res) => res.writeHead(302, { location: target(b) }).end());
    const posture = parsePosture({ INSIKA_EGRESS_HOSTS: `127.0.0.1:${a.port}`, INSIKA_EGRESS_ALLOW_HTTP: "1" });
    const { connector, attempts } = recordingConnector({ loopback: true });
    const r = await send({ url: `${a.origin}/` }, posture, dispatcher(posture, { connector }));
    expect(r).toMatchObject({ ok: false, kind: "blocked", egress: { verdict: "blocked", rule } });
    expect(r.ok === false && r.error).toMatch(/^destination blocked: /);
    expect(r.hops.map((h) => h.verdict)).toEqual(["allowed", "blocked"]);
    expect(attempts.map((x) => x.port)).toEqual([String(a.port)]);
    expect(b.connections()).toBe(0);
  });
});
