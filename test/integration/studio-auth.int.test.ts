/**
 * Studio authentication against the real server: every page under app/(studio) (found by
 * walking the tree) sends a browser without a valid session to /login, also for an RSC
 * request (which renders a page without its layout); the cookie-authenticated studio-api
 * routes check Origin and Content-Type; a signed-out (revoked) cookie stops working.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, type Db } from "@/db/client";
import { openServerDb } from "../support/test-database";
import { SESSION_COOKIE, issueSessionCookie, revokeSessionCookie } from "@/lib/api/auth";
import { BOOTSTRAP_KEY_ID } from "@/lib/services/keys/bootstrap-key";
import { startServer, type TestServer } from "../support/server";

/** The URL of every page.tsx under app/(studio), dynamic segments filled with a placeholder. */
function studioPages(): string[] {
  const root = path.join(process.cwd(), "app", "(studio)");
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "page.tsx") {
        const segments = path
          .relative(root, dir)
          .split(path.sep)
          .filter((s) => s && !/^\(.*\)$/.test(s));
        pages.push("/" + segments.map((s) => (s.startsWith("[") ? "no_such_thing" : s)).join("/"));
      }
    }
  };
  walk(root);
  return pages;
}

describe("Studio authentication", () => {
  let server: TestServer;
  let db: Db;
  const pages = studioPages();

  beforeAll(async () => {
    server = await startServer();
    db = openServerDb(server);
  });
  afterAll(async () => {
    if (db) await closeDb(db);
    await server?.stop();
  });

  /** Follows redirects by hand (keeping the headers) until one goes to /login or a page answers. */
  async function visit(pathname: string, headers: Record<string, string>) {
    let url = `${server.url}${pathname}`;
    for (let hop = 0; hop < 4; hop++) {
      const res = await fetch(url, { headers, redirect: "manual" });
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location)
        return { status: res.status, location: null, body: await res.text() };
      if (new URL(location, url).pathname === "/login") return { status: res.status, location: "/login", body: "" };
      url = new URL(location, url).toString();
    }
    throw new Error(`too many redirects for ${pathname}`);
  }

  it("finds the Studio pages by walking app/(studio)", () => {
    expect(pages).toEqual(expect.arrayContaining(["/", "/tools", "/tools/no_such_thing", "/sessions/no_such_thing"]));
  });

  it("sends every page to /login without a session, for documents and RSC requests alike", async () => {
    const forged = `${Date.now() + 3600_000}.${"a".repeat(32)}.${BOOTSTRAP_KEY_ID}.${"b".repeat(64)}`;
    for (const page of pages) {
      const variants: Array<Record<string, string>> = [
        {},
        { rsc: "1" },
        { cookie: `${SESSION_COOKIE}=${forged}` },
        { rsc: "1", cookie: `${SESSION_COOKIE}=${forged}` },
      ];
      for (const headers of variants) {
        const res = await visit(page, headers);
        expect({ page, headers, location: res.location }).toEqual({ page, headers, location: "/login" });
      }
    }
  });

  it("serves the pages with a session, and stops serving them once that session is revoked", async () => {
    const cookie = await issueSessionCookie(db, server.dataDir, BOOTSTRAP_KEY_ID);
    const jar = { cookie: `${SESSION_COOKIE}=${cookie}` };
    const home = await visit("/", jar);
    expect(home.status).toBe(200);
    expect(home.body).toContain("Overview");
    await revokeSessionCookie(db, server.dataDir, cookie);
    for (const headers of [jar, { ...jar, rsc: "1" }]) expect((await visit("/", headers)).location).toBe("/login");
    const api = await fetch(`${server.url}/studio-api/sessions/x/calls/y`, { headers: jar });
    expect(api.status).toBe(401);
  });

  it("checks Origin (403) and Content-Type (415) on the cookie-authenticated studio-api routes", async () => {
    const jar = `${SESSION_COOKIE}=${await issueSessionCookie(db, server.dataDir, BOOTSTRAP_KEY_ID)}`;
    const turns = `${server.url}/studio-api/sessions/no_such_session/turns`;
    const post = (headers: Record<string, string>, body = JSON.stringify({ message: "hi" })) =>
      fetch(turns, { method: "POST", headers: { cookie: jar, ...headers }, body });
    const same = server.url;

    const cases: Array<[Record<string, string>, number, string]> = [
      [{ "content-type": "application/json" }, 403, "forbidden"],
      [{ origin: "http://evil.example", "content-type": "application/json" }, 403, "forbidden"],
      [{ origin: "null", "content-type": "application/json" }, 403, "forbidden"],
      [{ origin: same, "content-type": "text/plain" }, 415, "unsupported_media_type"],
      [{ origin: same, "content-type": "application/x-www-form-urlencoded" }, 415, "unsupported_media_type"],
      [{ origin: same }, 415, "unsupported_media_type"],
      [{ origin: same, "content-type": "application/json" }, 404, "not_found"],
    ];
    for (const [headers, status, code] of cases) {
      const res = await post(headers);
      expect({ headers, status: res.status, code: (await res.json()).error.code }).toEqual({ headers, status, code });
    }
    const noCookie = await fetch(turns, {
      method: "POST",
      headers: { origin: same, "content-type": "application/json" },
      body: "{}",
    });
    expect(noCookie.status).toBe(401);

    const call = `${server.url}/studio-api/sessions/no_such_session/calls/c1`;
    expect((await fetch(call, { headers: { cookie: jar, origin: "http://evil.example" } })).status).toBe(403);
    expect((await fetch(call, { headers: { cookie: jar } })).status).toBe(404);
    expect((await fetch(call, { headers: { cookie: jar, origin: same } })).status).toBe(404);
  });
});
