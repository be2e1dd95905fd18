/**
 * Test-only: which database a test server runs on. The test script runs the integration
 * suite twice: on the SQLite file (the default), then on PostgreSQL, with
 * INSIKA_TEST_DATABASE_URL naming a throwaway cluster (scripts/test-postgres.sh). In the
 * PostgreSQL run every server gets a database of its own, made here, unless the test shares
 * one between servers on purpose (a fleet).
 */
import crypto from "node:crypto";
import pg from "pg";
import { dbFile, openDb, openPostgres } from "@/db/client";
import type { Db } from "@/db/database";

/** The admin URL of the test cluster, when this run is on PostgreSQL. */
export function testPostgresUrl(): string | undefined {
  return process.env.INSIKA_TEST_DATABASE_URL || undefined;
}

/** The dialect the integration run is on. */
export function testDialect(): "sqlite" | "postgres" {
  return testPostgresUrl() ? "postgres" : "sqlite";
}

/** For a test that runs the CLI before (or without) a server: a database of its own in the PostgreSQL run, nothing on SQLite. */
export async function testDatabaseEnv(): Promise<{ INSIKA_DATABASE_URL?: string }> {
  return testPostgresUrl() ? { INSIKA_DATABASE_URL: await createTestDatabase() } : {};
}

/** A new, empty database on the test cluster; its URL. */
export async function createTestDatabase(adminUrl = testPostgresUrl()): Promise<string> {
  if (!adminUrl) throw new Error("INSIKA_TEST_DATABASE_URL is not set: no PostgreSQL cluster to make a database on");
  const name = `insika_${crypto.randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The database a server runs on, opened from the test (to look at rows or change them behind its back). */
export function openServerDb(server: { dataDir: string; env: Record<string, string> }): Db {
  const url = server.env.INSIKA_DATABASE_URL;
  return url ? openPostgres(url, { poolSize: 2 }) : openDb(dbFile(server.dataDir));
}
