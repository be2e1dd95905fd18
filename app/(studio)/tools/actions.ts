"use server";
// Server actions of the Tools pages: each checks the Studio session and its arguments, then calls one service.
import { z } from "zod";
import { assertScope } from "@/lib/access/principal";
import { READ_CATALOG } from "@/lib/access/scopes";
import { pathSegment } from "@/lib/api/route";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { setToolExposure, toolExposureMode, type ToolExposureMode } from "@/lib/services/agents/set-agent-policy";
import { checkUrlVerdict } from "@/lib/services/tools/check-url-verdict";
import { testTool, testToolBody } from "@/lib/services/tools/test-tool";
import { putTool, removeTool, restoreToolVersion } from "@/lib/services/tools/tools";
import type { TurnContext } from "@/lib/tools/types";
import { asResult, parseArgs, studioDb } from "../action-result";

/** `definition` is checked by putTool itself, as for PUT /v1/tools/:name. */
export async function saveToolAction(name: string, definition: Record<string, unknown>) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["tools:write"], "saving a tool");
    const args = parseArgs({ name: pathSegment }, { name });
    const { created, tool } = await putTool(studioDb(), actor, args.name, definition, "studio");
    return { created, name: args.name, version: (tool as { version?: number }).version ?? null };
  });
}

export async function deleteToolAction(name: string) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["tools:write"], "deleting a tool");
    await removeTool(studioDb(), actor, parseArgs({ name: pathSegment }, { name }).name, "studio");
  });
}

/** The verdict tells the egress posture (allowlist, private ranges): for keys that may open a tool's page. */
export async function checkUrlAction(url: string) {
  const actor = await requireStudioSession();
  return asResult(() => {
    assertScope(actor, READ_CATALOG, "checking a URL against the egress guard");
    return checkUrlVerdict(parseArgs({ url: z.string() }, { url }).url);
  });
}

/** `args` are the tool's to check (testTool, against its schema); `ctx` as POST /v1/tools/:name/test takes it. */
export async function testToolAction(name: string, args: unknown, ctx: TurnContext) {
  const actor = await requireStudioSession();
  return asResult(() => {
    assertScope(actor, ["tools:write"], "trying a tool");
    const input = parseArgs({ name: pathSegment, ...testToolBody.shape }, { name, arguments: args, ctx });
    return testTool(studioDb(), actor, input.name, { arguments: input.arguments, ctx: input.ctx });
  });
}

export async function restoreVersionAction(name: string, version: number) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["tools:write"], "restoring a tool version");
    const args = parseArgs({ name: pathSegment, version: z.number().int().min(1) }, { name, version });
    const restored = await restoreToolVersion(studioDb(), actor, args.name, args.version);
    return (restored.tool as { version?: number }).version ?? null;
  });
}

export async function setExposureAction(agentId: string, tool: string, mode: ToolExposureMode) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["agents:write"], "changing a tool's exposure");
    const args = parseArgs(
      { agentId: pathSegment, tool: pathSegment, mode: toolExposureMode },
      { agentId, tool, mode },
    );
    return (await setToolExposure(studioDb(), actor, args.agentId, args.tool, args.mode)).agent.id;
  });
}
