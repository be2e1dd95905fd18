"use server";
// Server actions of the Tools pages: each checks the Studio session, then calls one service.
import { requireStudioSession } from "@/lib/api/studio-auth";
import { setToolExposure, type ToolExposureMode } from "@/lib/services/agents/set-agent-policy";
import { checkUrlVerdict } from "@/lib/services/tools/check-url-verdict";
import { testTool } from "@/lib/services/tools/test-tool";
import { putTool, removeTool, restoreToolVersion } from "@/lib/services/tools/tools";
import type { TurnContext } from "@/lib/tools/types";
import { asResult, studioDb } from "../action-result";

export async function saveToolAction(name: string, definition: Record<string, unknown>) {
  await requireStudioSession();
  return asResult(() => {
    const { created, tool } = putTool(studioDb(), name, definition, "studio");
    return { created, name, version: (tool as { version?: number }).version ?? null };
  });
}

export async function deleteToolAction(name: string) {
  await requireStudioSession();
  return asResult(() => removeTool(studioDb(), name, "studio"));
}

export async function checkUrlAction(url: string) {
  await requireStudioSession();
  return asResult(() => checkUrlVerdict(url));
}

export async function testToolAction(name: string, args: unknown, ctx: TurnContext) {
  await requireStudioSession();
  return asResult(() => testTool(studioDb(), name, { arguments: args, ctx }));
}

export async function restoreVersionAction(name: string, version: number) {
  await requireStudioSession();
  return asResult(() => (restoreToolVersion(studioDb(), name, version).tool as { version?: number }).version ?? null);
}

export async function setExposureAction(agentId: string, tool: string, mode: ToolExposureMode) {
  await requireStudioSession();
  return asResult(() => setToolExposure(studioDb(), agentId, tool, mode).agent.id);
}
