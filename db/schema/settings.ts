import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { updatedAt } from "./columns";

/**
 * Small process-wide values: the catalog version (DESIGN D10, bumped by every
 * tool or agent write so each process knows its registry is stale) and the API token hash.
 */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: updatedAt(),
});
