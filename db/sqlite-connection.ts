/**
 * What a SQLite connection and every handle on it (sqlite-database.ts) share: the
 * better-sqlite3 connection, its Drizzle handle and prepared statements, the gate that keeps a
 * transaction's connection to itself, and the notification emitter. client.ts shares one per
 * file between every copy of the db modules in a server process (processWide).
 */
import { EventEmitter } from "node:events";
import type Database from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { ConnectionGate } from "./connection-gate";
import type * as schema from "./schema";

/**
 * What a connection and every handle on it share: its transactions', and those of every copy
 * of this module the connection is shared with (client.ts, processWide).
 */
export interface SqliteConnection {
  client: Database.Database;
  orm: BetterSQLite3Database<typeof schema>;
  gate: ConnectionGate;
  statements: Map<string, SyncPrepared>;
  notifications: EventEmitter;
  onClose: () => Promise<void>;
  /** Set by the first close(): every handle on the connection closes with it. */
  closing?: Promise<void>;
}

/** The shared part of a connection opened (and migrated) by the caller. */
export function sqliteConnection(
  client: Database.Database,
  orm: BetterSQLite3Database<typeof schema>,
  onClose: () => Promise<void> = async () => undefined,
  options: { gateWaitMs?: number } = {},
): SqliteConnection {
  const notifications = new EventEmitter();
  notifications.setMaxListeners(0);
  return { client, orm, gate: new ConnectionGate(options.gateWaitMs), statements: new Map(), notifications, onClose };
}

export interface SyncPrepared {
  all(params?: Record<string, unknown>): unknown[];
  get(params?: Record<string, unknown>): unknown;
  run(params?: Record<string, unknown>): { changes: number };
  values(params?: Record<string, unknown>): unknown[][];
}

/** Closes the connection once, for every handle on it; a second close waits for the first. */
export function closeConnection(conn: SqliteConnection): Promise<void> {
  conn.closing ??= (async () => {
    conn.statements.clear();
    try {
      await conn.onClose();
    } finally {
      if (conn.client.open) conn.client.close();
    }
  })();
  return conn.closing;
}
