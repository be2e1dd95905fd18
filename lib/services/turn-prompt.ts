/**
 * The system message of a turn: the agent's instructions, then what its configured features
 * need the model to know: skills it may load, what it remembered, and the deferred tools it
 * can enable with tool_search (name and first line each, capped).
 */

/** At most this many deferred tools are listed; the rest are still found by tool_search. */
export const MAX_LISTED_DEFERRED = 100;
const LINE_CHARS = 160;

export interface TurnPromptParts {
  instructions: string;
  skills: { name: string; description: string }[];
  memories: string[];
  deferred: { name: string; description: string }[];
}

/** The instructions to send, or undefined when there is nothing to say. */
export function turnInstructions(parts: TurnPromptParts): string | undefined {
  const sections: string[] = [];
  if (parts.instructions.trim() !== "") sections.push(parts.instructions);
  if (parts.skills.length > 0) {
    sections.push(["Skills you can load with load_skill:", ...parts.skills.map((s) => `- ${s.name}: ${firstLine(s.description)}`)].join("\n"));
  }
  if (parts.memories.length > 0) {
    sections.push(["What you remembered in earlier conversations (remember):", ...parts.memories.map((m) => `- ${m}`)].join("\n"));
  }
  if (parts.deferred.length > 0) {
    const listed = parts.deferred.slice(0, MAX_LISTED_DEFERRED).map((t) => `- ${t.name}: ${firstLine(t.description)}`);
    const more = parts.deferred.length - listed.length;
    sections.push(
      [
        "Available tools (not callable yet: call tool_search to enable the ones you need):",
        ...listed,
        ...(more > 0 ? [`- … and ${more} more: search for them with tool_search`] : []),
      ].join("\n"),
    );
  }
  return sections.length > 0 ? sections.join("\n\n") : undefined;
}

/** The first line of a description, clipped. */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0]?.trim() ?? "";
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line;
}
