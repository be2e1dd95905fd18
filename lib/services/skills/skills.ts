/**
 * Skills: named markdown an agent may load with load_skill when it lists the skill in its
 * `skills`. Written through PUT /v1/skills/:name (or the config file's agents referencing
 * them by name); the model sees each listed skill's name and description in its system
 * message and loads the body on demand.
 */
import { z } from "zod";
import type { Db } from "@/db/database";
import type { Principal } from "@/lib/access/principal";
import { recordAudit } from "@/lib/services/audit/record-audit";
import { deleteSkill, getSkill, listSkills, upsertSkill } from "@/db/queries/skills";
import type { SkillRow } from "@/db/schema";
import { notFound, validationFailed } from "@/lib/errors";

export const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The body of PUT /v1/skills/:name. */
export const skillInput = z
  .object({
    name: z.string().optional(),
    description: z.string().trim().min(1).max(1000),
    body: z.string().min(1).max(200_000),
  })
  .strict();

function present(row: SkillRow, withBody: boolean) {
  return {
    name: row.name,
    description: row.description,
    ...(withBody ? { body: row.body } : {}),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** Creates or replaces a skill; 422 for a bad name, a body `name` different from the path, or a missing field. */
export async function putSkill(db: Db, actor: Principal, name: string, input: z.infer<typeof skillInput>) {
  if (!SKILL_NAME.test(name)) throw validationFailed(`skill name must match ${SKILL_NAME}`);
  if (input.name !== undefined && input.name !== name)
    throw validationFailed(`body name '${input.name}' differs from the path '${name}'`);
  const { created, skill } = await db.transaction(async (tx) => {
    const written = await upsertSkill(tx, { name, description: input.description, body: input.body });
    await recordAudit(tx, actor, {
      action: "skill.put",
      target: `skill:${name}`,
      summary: { change: written.created ? "created" : "updated" },
    });
    return written;
  });
  return { created, skill: present(skill, true) };
}

export async function getSkillOrThrow(db: Db, name: string) {
  const row = await getSkill(db, name);
  if (!row) throw notFound(`skill '${name}'`);
  return present(row, true);
}

/** Every skill, without bodies. */
export const listSkillsPresented = async (db: Db) => (await listSkills(db)).map((row) => present(row, false));

export async function removeSkill(db: Db, actor: Principal, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await deleteSkill(tx, name))) throw notFound(`skill '${name}'`);
    await recordAudit(tx, actor, { action: "skill.delete", target: `skill:${name}` });
  });
}
