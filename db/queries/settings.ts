import { eq, sql } from "drizzle-orm";
import type { Db } from "../database";
import { param } from "./prepared";

export const CATALOG_VERSION_KEY = "catalog_version";
export const API_TOKEN_HASH_KEY = "api_token_hash";

/** A setting's value, or undefined. */
export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  // Prepared: the catalog version is read before every turn (DESIGN D10).
  const query = db.prepared("settings.get", (o, { settings }) =>
    o
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, param("key"))),
  );
  return (await query.get({ key }))?.value;
}

/** Creates or replaces a setting. */
export async function setSetting(db: Db, key: string, value: string, now = Date.now()): Promise<void> {
  const { settings } = db.t;
  await db.run(
    db.orm
      .insert(settings)
      .values({ key, value, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } }),
  );
}

/** The catalog version (DESIGN D10); 0 before the first write. */
export async function getCatalogVersion(db: Db): Promise<number> {
  return Number((await getSetting(db, CATALOG_VERSION_KEY)) ?? 0);
}

/**
 * Bumps the catalog version atomically and returns the new value; every instance sees it at
 * its next turn (getCatalog reads the version). Call inside the write's transaction.
 */
export async function bumpCatalogVersion(db: Db, now = Date.now()): Promise<number> {
  const { settings } = db.t;
  const row = await db.get(
    db.orm
      .insert(settings)
      .values({ key: CATALOG_VERSION_KEY, value: "1", updatedAt: now })
      .onConflictDoUpdate({
        target: settings.key,
        set: { value: sql`CAST(CAST(${settings.value} AS BIGINT) + 1 AS TEXT)`, updatedAt: now },
      })
      .returning({ value: settings.value }),
  );
  return Number(row!.value);
}
