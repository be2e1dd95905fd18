import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { DataToolDefinition } from "@/lib/tools/types";
import { createdAt, json } from "./columns";

/** Every write of a tool, kept for history, diff and restore. A null definition records a delete. */
export const toolVersions = sqliteTable(
  "tool_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    version: integer("version").notNull(),
    change: text("change", { enum: ["create", "update", "delete", "restore"] }).notNull(),
    source: text("source").notNull(),
    definition: json<DataToolDefinition>("definition"),
    createdAt: createdAt(),
    /** Who made this version (the key id and its name then); null for versions written before keys existed. */
    actorKeyId: text("actor_key_id"),
    actorName: text("actor_name"),
  },
  (t) => [index("tool_versions_name_version").on(t.name, t.version)],
);

export type ToolVersionRow = typeof toolVersions.$inferSelect;
