import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { DataToolDefinition } from "@/lib/tools/types";
import { createdAt, json, updatedAt } from "./columns";

/**
 * One row per data tool (MCP tools included: kind "mcp"). `definition` is the
 * validated, normalized definition as it was accepted; it is validated again
 * when the catalog is built, so a row that no longer validates is dropped and reported.
 */
export const tools = sqliteTable("tools", {
  name: text("name").primaryKey(),
  kind: text("kind", { enum: ["data", "mcp"] }).notNull(),
  definition: json<DataToolDefinition>("definition").notNull(),
  group: text("group"),
  version: integer("version").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type ToolRow = typeof tools.$inferSelect;
