/**
 * An instance on PostgreSQL keeps at most INSIKA_DATABASE_POOL connections (plus one for
 * notifications), as the README tells an operator sizing max_connections: the built server's
 * start-up work, route handlers and Studio pages are bundled apart, each with its own copy of
 * the database client, and all of them draw on one pool. The PostgreSQL run only.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE, issueSessionCookie } from "@/lib/api/auth";
import { BOOTSTRAP_KEY_ID } from "@/lib/services/keys/bootstrap-key";
import { closeDb } from "@/db/client";
import { startServer, type TestServer } from "../support/server";
import { openServerDb, testPostgresUrl } from "../support/test-database";

const POOL = 2;

describe.skipIf(!testPostgresUrl())("a server's PostgreSQL connections", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { INSIKA_DATABASE_POOL: String(POOL) } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("stay within INSIKA_DATABASE_POOL (and one for notifications) while the API and the Studio pages are busy", async () => {
    const db = openServerDb(server);
    const cookie = `${SESSION_COOKIE}=${await issueSessionCookie(db, server.dataDir, BOOTSTRAP_KEY_ID)}`;
    await closeDb(db);
    // Route handlers and server-rendered pages at once, more requests than the pool has connections.
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, () => server.api("GET", "/v1/sessions").then((res) => res.status)),
      ...Array.from({ length: 4 }, () =>
        fetch(`${server.url}/`, { headers: { cookie }, redirect: "manual" }).then((res) => res.status),
      ),
    ]);
    expect(answers).toEqual([...Array(12).fill(200), ...Array(4).fill(200)]);
    // The pool keeps idle connections for 30 s: what the server opened is still there to count.
    const admin = new pg.Client({ connectionString: server.env.INSIKA_DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: string }>(
        "select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      expect(Number(rows[0]?.n)).toBeGreaterThan(0);
      expect(Number(rows[0]?.n)).toBeLessThanOrEqual(POOL + 1);
    } finally {
      await admin.end();
    }
  });
});
