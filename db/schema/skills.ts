import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";

/** A skill: markdown an agent may load on demand with `load_skill` (if it lists the skill). */
export const skills = sqliteTable("skills", {
  name: text("name").primaryKey(),
  description: text("description").notNull(),
  body: text("body").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type SkillRow = typeof skills.$inferSelect;
