import type { SystemToolResult } from "./system-tool-result";

export const MAX_MEMORY_CHARS = 2000;

/** remember: keeps a short fact for later turns of this agent and tenant. */
export async function runRemember(
  args: { text: string },
  deps: { save(text: string): Promise<void> },
): Promise<SystemToolResult> {
  const text = args.text.trim();
  if (text === "") throw new Error("text must not be empty");
  if (text.length > MAX_MEMORY_CHARS)
    throw new Error(`text is too long: ${text.length} characters (max ${MAX_MEMORY_CHARS})`);
  await deps.save(text);
  return { value: { remembered: text } };
}
