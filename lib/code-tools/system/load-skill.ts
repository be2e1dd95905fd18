import type { SystemToolResult } from "./system-tool-result";

export interface LoadSkillDeps {
  /** The skills this agent lists. */
  allowed: ReadonlySet<string>;
  get(name: string): Promise<{ name: string; description: string; body: string } | undefined>;
}

/** load_skill: the full markdown of one skill the agent lists. */
export async function runLoadSkill(args: { name: string }, deps: LoadSkillDeps): Promise<SystemToolResult> {
  if (!deps.allowed.has(args.name)) throw new Error(`unknown skill: ${args.name}`);
  const skill = await deps.get(args.name);
  if (!skill) throw new Error(`skill '${args.name}' is not defined`);
  return { value: { skill: skill.name, instructions: skill.body } };
}
