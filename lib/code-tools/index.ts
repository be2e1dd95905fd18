/**
 * The code tools shipped in this build. Adding one: write a CodeTool class in
 * this folder and list it here; its name is then reserved against data tools.
 */
import { Calculate } from "./calculate";
import type { CodeTool } from "./code-tool";
import { CurrentTime } from "./current-time";

export { CodeTool, type CodeToolContext } from "./code-tool";
/** Bounded parallel map for a code tool that fans out (the spec's Concurrency.gather). */
export { gather, type GatherOptions } from "./gather";

/** A fresh map of the shipped code tools, by name. */
export function shippedCodeTools(): Map<string, CodeTool> {
  const list: CodeTool[] = [new CurrentTime(), new Calculate()];
  return new Map(list.map((tool) => [tool.name, tool]));
}
