import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, json } from "./columns";

/**
 * API keys (`insk_…`). Only a SHA-256 of the value is stored (keys are 32 random bytes, so a
 * fast hash is enough); `prefix` is the start of the value, shown so an operator can tell
 * keys apart. A revoked key keeps its row (the audit log names it).
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    hash: text("hash").notNull(),
    prefix: text("prefix").notNull(),
    scopes: json<string[]>("scopes").notNull(),
    agents: json<string[]>("agents"),
    tenant: text("tenant"),
    turnsPerMinute: integer("turns_per_minute"),
    expiresAt: integer("expires_at"),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.hash), index("api_keys_created").on(t.createdAt)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
