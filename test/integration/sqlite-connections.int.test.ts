/**
 * An instance on SQLite holds one connection to its database file (and one more for the WAL
 * checkpointer's thread), however many copies of the database client the built server loads:
 * its start-up work, route handlers and Studio pages are bundled apart, and they share one
 * connection, so their transactions queue at one gate and every copy hears every commit's
 * notifications (db/client.ts). The SQLite run only.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE, issueSessionCookie } from "@/lib/api/auth";
import { BOOTSTRAP_KEY_ID } from "@/lib/services/keys/bootstrap-key";
import { closeDb } from "@/db/client";
import { startServer, type TestServer } from "../support/server";
import { openServerDb, testPostgresUrl } from "../support/test-database";

/** The server process's open descriptors of `file` (Linux: /proc). */
function openDescriptorsOf(pid: number, file: string): number {
  const dir = `/proc/${pid}/fd`;
  let count = 0;
  for (const fd of fs.readdirSync(dir)) {
    try {
      if (fs.readlinkSync(path.join(dir, fd)) === file) count += 1;
    } catch {
      // closed while we looked
    }
  }
  return count;
}

describe.skipIf(testPostgresUrl() !== undefined || process.platform !== "linux")(
  "a server's SQLite connections",
  () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startServer();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("are one for the API, the Studio pages and the start-up work, plus the checkpointer's", async () => {
      const db = openServerDb(server);
      const cookie = `${SESSION_COOKIE}=${await issueSessionCookie(db, server.dataDir, BOOTSTRAP_KEY_ID)}`;
      await closeDb(db);
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => server.api("GET", "/v1/sessions").then((res) => res.status)),
        ...Array.from({ length: 3 }, () =>
          fetch(`${server.url}/`, { headers: { cookie }, redirect: "manual" }).then((res) => res.status),
        ),
      ]);
      expect(answers).toEqual([...Array(6).fill(200), ...Array(3).fill(200)]);
      const pid = server.pid();
      expect(pid).toBeDefined();
      expect(openDescriptorsOf(pid!, fs.realpathSync(path.join(server.dataDir, "insika.db")))).toBe(2);
    });
  },
);
