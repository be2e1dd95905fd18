"use server";
// Server actions of the Tools pages: each checks the Studio session, then calls one service.
import { assertScope } from "@/lib/access/principal";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { setToolExposure, type ToolExposureMode } from "@/lib/services/agents/set-agent-policy";
import { checkUrlVerdict } from "@/lib/services/tools/check-url-verdict";
import { testTool } from "@/lib/services/tools/test-tool";
import { putTool, removeTool, restoreToolVersion } from "@/lib/services/tools/tools";
import type { TurnContext } from "@/lib/tools/types";
import { asResult, studioDb } from "../action-result";

export async function saveToolAction(name: string, definition: Record<string, unknown>) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["tools:write"], "saving a tool");
    const { created, tool } = await putTool(studioDb(), actor, name, definition, "studio");
    return { created, name, version: (tool as { version?: number }).version ?? null };
  });
}

export async function deleteToolAction(name: string) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["tools:write"], "deleting a tool");
    await removeTool(studioDb(), actor, name, "studio");
  });
}

export async function checkUrlAction(url: string) {
  await requireStudioSession();
  return asResult(() => checkUrlVerdict(url));
}

export async function testToolAction(name: string, args: unknown, ctx: TurnContext) {
  const actor = await requireStudioSession();
  return asResult(() => {
    assertScope(actor, ["tools:write"], "trying a tool");
    return testTool(studioDb(), actor, name, { arguments: args, ctx });
  });
}

export async function restoreVersionAction(name: string, version: number) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["tools:write"], "restoring a tool version");
    return ((await restoreToolVersion(studioDb(), actor, name, version)).tool as { version?: number }).version ?? null;
  });
}

export async function setExposureAction(agentId: string, tool: string, mode: ToolExposureMode) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["agents:write"], "changing a tool's exposure");
    return (await setToolExposure(studioDb(), actor, agentId, tool, mode)).agent.id;
  });
}
