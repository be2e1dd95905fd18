import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../database";
import type { ApiKeyRow } from "../schema";
import { param } from "./prepared";

export type ApiKeyValues = Omit<ApiKeyRow, "lastUsedAt" | "revokedAt">;

/** Stores a new key (its hash, never its value). */
export async function insertApiKey(db: Db, values: ApiKeyValues): Promise<ApiKeyRow> {
  const { apiKeys } = db.t;
  return (await db.get(db.orm.insert(apiKeys).values(values).returning()))!;
}

/** The key whose value hashes to `hash`, revoked or not; undefined when none. */
export function getApiKeyByHash(db: Db, hash: string): Promise<ApiKeyRow | undefined> {
  // Prepared: every authenticated request reads it (never cached, so a revocation holds on the next request).
  return db
    .prepared("apiKeys.byHash", (o, { apiKeys }) =>
      o
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.hash, param("hash"))),
    )
    .get({ hash });
}

export function getApiKey(db: Db, id: string): Promise<ApiKeyRow | undefined> {
  const { apiKeys } = db.t;
  return db.get(db.orm.select().from(apiKeys).where(eq(apiKeys.id, id)));
}

/** Every key, newest first (revoked ones included: they stay listed as revoked). */
export function listApiKeys(db: Db): Promise<ApiKeyRow[]> {
  const { apiKeys } = db.t;
  return db.all(db.orm.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)));
}

/** Marks a key revoked; false when it was absent or already revoked. */
export async function revokeApiKey(db: Db, id: string, now = Date.now()): Promise<boolean> {
  const { apiKeys } = db.t;
  const changed = await db.run(
    db.orm
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))),
  );
  return changed > 0;
}

/** Replaces the hash (and prefix) of a key: the bootstrap key follows INSIKA_API_TOKEN and `insika token --rotate`. */
export async function rehashApiKey(db: Db, id: string, hash: string, prefix: string): Promise<void> {
  const { apiKeys } = db.t;
  await db.run(db.orm.update(apiKeys).set({ hash, prefix, revokedAt: null }).where(eq(apiKeys.id, id)));
}

/** Records a use; written at most once a minute per key so that reads stay reads. */
export async function touchApiKey(db: Db, id: string, now = Date.now()): Promise<void> {
  await db
    .prepared("apiKeys.touch", (o, { apiKeys }) =>
      o
        .update(apiKeys)
        .set({ lastUsedAt: param("now") as never })
        .where(eq(apiKeys.id, param("id"))),
    )
    .run({ id, now });
}
