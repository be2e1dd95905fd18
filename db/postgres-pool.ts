/**
 * The connections a PostgreSQL handle (postgres-database.ts) stands on, and what every handle
 * over them shares: the node-postgres pool, its Drizzle handle, the prepared statements, the
 * migration state and the notification connection. A process-wide pool is one per URL for
 * the whole process, kept on globalThis: Next.js loads the server's start-up work, its route
 * handlers and its pages each with a copy of this module, and an instance keeps at most
 * `poolSize` connections (plus one for notifications) only if all of them draw on one pool.
 */
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { describeError, log } from "@/lib/log";
import type { NotificationListener } from "./postgres-notification-listener";
import { processWide } from "./process-wide";

export const CONNECT_TIMEOUT_MS = 5_000;
/** pg_advisory_lock key the migrating instance holds ("insika" in ASCII). */
const MIGRATION_LOCK = 0x696e73696b61;

export type PgOrm = NodePgDatabase<Record<string, never>>;

export interface Prepared {
  execute(params?: Record<string, unknown>): Promise<unknown>;
}

export interface SharedPool {
  pool: pg.Pool;
  /** The pool's Drizzle handle: every prepared statement is built on it, once per key. */
  root: PgOrm;
  /** Prepared statements by key, built once per pool (their client: the pool). */
  statements: Map<string, Prepared>;
  url: string;
  migrationsFolder: string;
  ready?: Promise<void>;
  isReady: boolean;
  listener?: NotificationListener;
  closed: boolean;
}

export interface PoolOptions {
  poolSize: number;
  migrationsFolder: string;
  /** One pool per URL for the whole process (the server's handles); else a pool of its own. */
  processWide?: boolean;
}

/** The process-wide pools by URL: one map for every copy of this module. */
const processWidePools = () => processWide<SharedPool>("postgresPools");

/** The pool for `url`: the process-wide one when asked and open, else a new one (nothing connected yet). */
export function openPool(url: string, options: PoolOptions): SharedPool {
  const existing = options.processWide ? processWidePools().get(url) : undefined;
  if (existing && !existing.closed) return existing;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    // A statement issued while others are in flight on a connection goes out at once (the
    // group commit's flush runs its turns' writes side by side: flush-writes.ts). Statements
    // awaited one by one run as without it.
    pipeline: true,
  });
  // A connection that drops while idle in the pool: logged; the pool replaces it on demand.
  pool.on("error", (error) => log.warn("postgres connection lost", describeError(error)));
  const shared: SharedPool = {
    pool,
    root: drizzle({ client: pool }),
    statements: new Map(),
    url,
    migrationsFolder: options.migrationsFolder,
    isReady: false,
    closed: false,
  };
  if (options.processWide) processWidePools().set(url, shared);
  return shared;
}

/** Closes the pool for every handle over it; a process-wide one is forgotten, so the next open starts anew. */
export async function closePool(shared: SharedPool): Promise<void> {
  if (shared.closed) return;
  shared.closed = true;
  const pools = processWidePools();
  if (pools.get(shared.url) === shared) pools.delete(shared.url);
  await shared.listener?.close();
  await shared.pool.end();
}

/** Connects (a clear error when the server cannot be reached) and applies pending migrations under the advisory lock. */
export async function migrateOnce(shared: SharedPool): Promise<void> {
  let client: pg.PoolClient;
  try {
    client = await shared.pool.connect();
  } catch (error) {
    throw new Error(`cannot connect to PostgreSQL at ${redactUrl(shared.url)}: ${describeError(error).error}`, {
      cause: error,
    });
  }
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder: shared.migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}
