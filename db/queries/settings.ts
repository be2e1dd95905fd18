import { eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { settings } from "../schema";
import { param, prepared } from "./prepared";

type DbOrTx = Pick<Db, "select" | "insert" | "update">;

export const CATALOG_VERSION_KEY = "catalog_version";
export const API_TOKEN_HASH_KEY = "api_token_hash";

/** A setting's value, or undefined. */
export function getSetting(db: DbOrTx, key: string): string | undefined {
  // Prepared: the catalog version is read before every turn (DESIGN D10).
  const query = prepared(db, "settings.get", (d) =>
    d
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, param("key")))
      .prepare(),
  );
  return query.get({ key })?.value;
}

/** Creates or replaces a setting. */
export function setSetting(db: DbOrTx, key: string, value: string, now = Date.now()): void {
  db.insert(settings)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } })
    .run();
}

/** The catalog version (DESIGN D10); 0 before the first write. */
export function getCatalogVersion(db: DbOrTx): number {
  return Number(getSetting(db, CATALOG_VERSION_KEY) ?? 0);
}

/** Bumps the catalog version atomically and returns the new value. Call inside the write's transaction. */
export function bumpCatalogVersion(db: DbOrTx, now = Date.now()): number {
  const row = db
    .insert(settings)
    .values({ key: CATALOG_VERSION_KEY, value: "1", updatedAt: now })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: sql`CAST(${settings.value} AS INTEGER) + 1`, updatedAt: now },
    })
    .returning({ value: settings.value })
    .get();
  return Number(row.value);
}
