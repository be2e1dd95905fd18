import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { apiKeys, type ApiKeyRow } from "../schema";
import { param, prepared } from "./prepared";

export type ApiKeyValues = Omit<ApiKeyRow, "lastUsedAt" | "revokedAt">;

/** Stores a new key (its hash, never its value). */
export function insertApiKey(db: Pick<Db, "insert">, values: ApiKeyValues): ApiKeyRow {
  return db.insert(apiKeys).values(values).returning().get();
}

/** The key whose value hashes to `hash`, revoked or not; undefined when none. */
export function getApiKeyByHash(db: Db, hash: string): ApiKeyRow | undefined {
  // Prepared: every authenticated request reads it (never cached, so a revocation holds on the next request).
  return prepared(db, "apiKeys.byHash", (d) =>
    d
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.hash, param("hash")))
      .prepare(),
  ).get({ hash });
}

export function getApiKey(db: Db, id: string): ApiKeyRow | undefined {
  return db.select().from(apiKeys).where(eq(apiKeys.id, id)).get();
}

/** Every key, newest first (revoked ones included: they stay listed as revoked). */
export function listApiKeys(db: Db): ApiKeyRow[] {
  return db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).all();
}

/** Marks a key revoked; false when it was absent or already revoked. */
export function revokeApiKey(db: Pick<Db, "update">, id: string, now = Date.now()): boolean {
  const rows = db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
    .all();
  return rows.length > 0;
}

/** Replaces the hash (and prefix) of a key: the bootstrap key follows INSIKA_API_TOKEN and `insika token --rotate`. */
export function rehashApiKey(db: Pick<Db, "update">, id: string, hash: string, prefix: string): void {
  db.update(apiKeys).set({ hash, prefix, revokedAt: null }).where(eq(apiKeys.id, id)).run();
}

/** Records a use; written at most once a minute per key so that reads stay reads. */
export function touchApiKey(db: Db, id: string, now = Date.now()): void {
  prepared(db, "apiKeys.touch", (d) =>
    d
      .update(apiKeys)
      .set({ lastUsedAt: param("now") as never })
      .where(eq(apiKeys.id, param("id")))
      .prepare(),
  ).run({ id, now });
}
