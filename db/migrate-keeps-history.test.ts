/**
 * Migration 0003 rebuilds `sessions` (and `memories`) to change their foreign key to agents.
 * `sessions` is the parent of turns, messages and approvals (ON DELETE CASCADE): dropping it
 * while foreign keys are enforced deletes every turn with it. These tests migrate a database
 * filled at 0002 and check that every row of history is still there.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, describe, expect, it } from "vitest";
import { closeDb, MIGRATIONS_DIR, openDb } from "./client";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "insika-migrate-"));
  dirs.push(dir);
  return dir;
}

/** A copy of the migrations folder holding only the first `count` migrations. */
function migrationsUpTo(count: number): string {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, "meta"));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  journal.entries = journal.entries.slice(0, count);
  fs.writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify(journal));
  for (const entry of journal.entries)
    fs.copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

const TABLES = [
  "agents",
  "sessions",
  "turns",
  "messages",
  "events",
  "tool_calls",
  "call_journal",
  "checkpoints",
  "approvals",
  "memories",
];

function counts(sqlite: Database.Database): Record<string, number> {
  return Object.fromEntries(
    TABLES.map((t) => [t, (sqlite.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n]),
  );
}

/** A database at migration 0002 (foreign keys on, as the old openDb ran it) with one of everything. */
function databaseAt0002(file: string): Record<string, number> {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  migrate(drizzle(sqlite), { migrationsFolder: migrationsUpTo(3) });
  const now = 1_000;
  sqlite.exec(`
    insert into agents (id, name, instructions, model, tools_allow, tools_deny, tools_allow_groups, tools_deferred, approvals, limits, metadata, skills, subagents, memory, source, created_at, updated_at)
      values ('a', 'A', '', '{"provider":"demo","model":"demo"}', null, '[]', null, '[]', '[]', '{}', '{}', '[]', '[]', 1, 'api', ${now}, ${now});
    insert into sessions (id, agent_id, tenant, created_at, updated_at) values ('s1', 'a', null, ${now}, ${now}), ('s2', 'a', 't', ${now}, ${now});
    insert into turns (id, session_id, seq, status, user_message, started_at) values ('t1', 's1', 1, 'completed', 'hi', ${now}), ('t2', 's2', 1, 'waiting', 'go', ${now});
    insert into messages (session_id, turn_id, role, content, created_at) values ('s1', 't1', 'user', 'hi', ${now}), ('s1', 't1', 'assistant', 'hello', ${now});
    insert into events (turn_id, seq, type, data, at) values ('t1', 1, 'turn_started', '{}', ${now}), ('t1', 2, 'turn_completed', '{}', ${now});
    insert into tool_calls (turn_id, call_id, tool, ok, started_at, duration_ms, queued_ms, record) values ('t1', 'c1', 'x', 1, ${now}, 1, 0, '{}');
    insert into call_journal (turn_id, identity, step, position, tool, call_id, status, outcome, started_at, completed_at) values ('t1', 'i1', 0, 0, 'x', 'c1', 'completed', '{}', ${now}, ${now});
    insert into checkpoints (turn_id, step, state, depth, runner_pid, updated_at) values ('t2', 0, '{}', 0, 42, ${now});
    insert into approvals (id, turn_id, session_id, call_id, identity, tool, arguments, status, note, created_at, decided_at, expires_at) values ('apr', 't2', 's2', 'c1', 'i2', 'x', null, 'pending', null, ${now}, null, ${now + 1});
    insert into memories (agent_id, tenant, text, created_at) values ('a', 't', 'likes tea', ${now});
  `);
  const before = counts(sqlite);
  sqlite.close();
  return before;
}

describe("migration 0003 (sessions and memories rebuilt)", () => {
  it("keeps every row of history, and foreign keys are enforced again afterwards", async () => {
    const file = path.join(tempDir(), "insika.db");
    const before = databaseAt0002(file);
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const db = openDb(file);
    try {
      expect(counts(db.client)).toEqual(before);
      expect(db.client.pragma("foreign_keys", { simple: true })).toBe(1);
      expect(db.client.pragma("foreign_key_check")).toEqual([]);
      // The new foreign key: an agent with history cannot be hard-deleted.
      expect(() => db.client.prepare("delete from agents where id = 'a'").run()).toThrow(/FOREIGN KEY/);
      expect(db.client.prepare("select runner_instance, lease_expires_at from checkpoints").get()).toEqual({
        runner_instance: null,
        lease_expires_at: null,
      });
    } finally {
      await closeDb(db);
    }
  });
});
