import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { skills, type SkillRow } from "../schema";

/** Creates or replaces a skill; `created` tells which. */
export function upsertSkill(db: Db, values: Pick<SkillRow, "name" | "description" | "body">, now = Date.now()) {
  return db.transaction((tx) => {
    const existing = tx.select({ name: skills.name }).from(skills).where(eq(skills.name, values.name)).get();
    const skill = tx
      .insert(skills)
      .values({ ...values, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: skills.name,
        set: { description: values.description, body: values.body, updatedAt: now },
      })
      .returning()
      .get();
    return { created: !existing, skill };
  });
}

export function getSkill(db: Db, name: string): SkillRow | undefined {
  return db.select().from(skills).where(eq(skills.name, name)).get();
}

/** Every skill by name, or only the named ones. */
export function listSkills(db: Db, names?: string[]): SkillRow[] {
  if (names && names.length === 0) return [];
  return db
    .select()
    .from(skills)
    .where(names ? inArray(skills.name, names) : undefined)
    .orderBy(asc(skills.name))
    .all();
}

/** Deletes a skill; false when absent. */
export function deleteSkill(db: Db, name: string): boolean {
  return db.delete(skills).where(eq(skills.name, name)).run().changes === 1;
}
