/**
 * PostgreSQL migrations that change data, run against a database an earlier version left: the
 * migration must apply (an instance that cannot migrate does not start) and leave the rows as the
 * new version writes them. The database is migrated up to the migration before, given the rows,
 * then opened by this version.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openPostgres } from "@/db/client";
import type { Db } from "@/db/database";
import { upsertAgent } from "@/db/queries/agents";
import { listRecentBlockedCalls } from "@/db/queries/overview";
import { insertSession } from "@/db/queries/sessions";
import { listTrace } from "@/db/queries/traces";
import { PostgresDatabase } from "@/db/postgres-database";
import { agentRow } from "../support/agent-row";
import { tempDir } from "../support/temp-dir";
import { createTestDatabase, testPostgresUrl } from "../support/test-database";

const SHIPPED = path.resolve("db/migrations-pg");

/** A copy of the shipped migrations that ends just before `tag`. */
function migrationsBefore(tag: string): string {
  const dir = tempDir("insika-migrations-");
  fs.cpSync(SHIPPED, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag}`);
  for (const entry of journal.entries.slice(at)) fs.rmSync(path.join(dir, `${entry.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

const opened: Db[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
});

describe.skipIf(!testPostgresUrl())("PostgreSQL migrations over an earlier version's rows", () => {
  it("0002 makes call records PostgreSQL's JSON functions could not read readable, then indexes the refused calls", async () => {
    const url = await createTestDatabase();
    const before = PostgresDatabase.open(url, {
      poolSize: 1,
      migrationsFolder: migrationsBefore("0002_partial_blocked_index"),
    });
    opened.push(before);
    await before.ready();
    const now = Date.now();
    await upsertAgent(before, agentRow("a"));
    await insertSession(before, { id: "ses_old", agentId: "a", tenant: null });
    // Written as that version wrote a turn (today's insertTurn names columns added since).
    await before.execute(
      sql`insert into turns (id, session_id, seq, status, user_message, started_at) values ('turn_old', 'ses_old', 1, 'running', 'hi', ${now})`,
    );
    // As the earlier version wrote them: JSON.stringify's \u0000 and lone-surrogate escapes, and
    // a backslash typed before "u0000" (an escaped backslash: literal text, to be left alone).
    const records = [
      '{"egress":{"verdict":"blocked","rule":"private"},"arguments":{"q":"a\\u0000b"}}',
      '{"egress":{"verdict":"allowed"},"result":"\\ud800 \\uDC00 \\u0000\\u0000"}',
      '{"egress":{"verdict":"allowed"},"result":"typed \\\\u0000"}',
    ];
    for (const [i, record] of records.entries()) {
      await before.execute(
        sql`insert into tool_calls (turn_id, call_id, tool, ok, started_at, duration_ms, queued_ms, record) values ('turn_old', ${`call_${i}`}, 'lookup', ${i > 0}, ${now}, 1, 0, ${record})`,
      );
    }
    await before.close();

    const db = openPostgres(url, { poolSize: 1 });
    opened.push(db);
    await db.ready();
    const calls = (await listTrace(db, ["turn_old"])).calls.map((c) => c.record);
    expect(calls).toEqual([
      { egress: { verdict: "blocked", rule: "private" }, arguments: { q: "a\uFFFDb" } },
      { egress: { verdict: "allowed" }, result: "\uFFFD \uFFFD \uFFFD\uFFFD" },
      { egress: { verdict: "allowed" }, result: "typed \\u0000" },
    ]);
    expect(await listRecentBlockedCalls(db, { since: now - 60_000, limit: 10 })).toEqual([
      expect.objectContaining({ callId: "call_0", rule: "private" }),
    ]);
    const [index] = await db.execute<{ indexdef: string }>(
      sql`select indexdef from pg_indexes where indexname = 'tool_calls_blocked'`,
    );
    expect(index?.indexdef).toMatch(/WHERE/);
  });
});
