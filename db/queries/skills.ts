import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../database";
import type { SkillRow } from "../schema";

/** Creates or replaces a skill; `created` tells which. */
export function upsertSkill(
  db: Db,
  values: Pick<SkillRow, "name" | "description" | "body">,
  now = Date.now(),
): Promise<{ created: boolean; skill: SkillRow }> {
  return db.transaction(async (tx) => {
    const { skills } = tx.t;
    const existing = await tx.get(
      tx.orm.select({ name: skills.name }).from(skills).where(eq(skills.name, values.name)),
    );
    const skill = (await tx.get(
      tx.orm
        .insert(skills)
        .values({ ...values, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: skills.name,
          set: { description: values.description, body: values.body, updatedAt: now },
        })
        .returning(),
    ))!;
    return { created: !existing, skill };
  });
}

export function getSkill(db: Db, name: string): Promise<SkillRow | undefined> {
  const { skills } = db.t;
  return db.get(db.orm.select().from(skills).where(eq(skills.name, name)));
}

/** Every skill by name, or only the named ones. */
export async function listSkills(db: Db, names?: string[]): Promise<SkillRow[]> {
  const { skills } = db.t;
  if (names && names.length === 0) return [];
  return db.all(
    db.orm
      .select()
      .from(skills)
      .where(names ? inArray(skills.name, names) : undefined)
      .orderBy(asc(skills.name)),
  );
}

/** Deletes a skill; false when absent. */
export async function deleteSkill(db: Db, name: string): Promise<boolean> {
  const { skills } = db.t;
  return (await db.run(db.orm.delete(skills).where(eq(skills.name, name)))) === 1;
}
