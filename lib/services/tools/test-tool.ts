/**
 * "Try it": run one call of a catalog tool without a model (POST
 * /v1/tools/:name/test and the Studio). Same paths as a turn: data tools
 * through lib/http-tools under this process's egress posture and secrets,
 * code tools through the turn executor. The answer is the bare call record,
 * the shape the trace shows, whatever the outcome.
 *
 * Every call is recorded in the audit log (action `tool.test`, target `tool:<name>`) with
 * who made it, the ctx it ran with and its call record (secrets masked like any trace
 * record), so a try-it call is never invisible. A key pinned to a tenant runs it as that
 * tenant: another ctx.tenant is refused.
 */
import crypto from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/database";
import type { Principal } from "@/lib/access/principal";
import { recordAudit } from "@/lib/services/audit/record-audit";
import { DomainError, notFound } from "@/lib/errors";
import { executeDataTool } from "@/lib/http-tools";
import { processSecrets } from "@/lib/secrets/secret-source";
import { CTX_KEYS, type TurnContext } from "@/lib/tools/types";
import { getCatalog } from "./catalog";
import { getSystemTool } from "./system-tool-catalog";
import { getPosture } from "./egress-posture";
import { getMcpCaller } from "@/lib/services/mcp/mcp-caller";
import { createCatalogExecutor } from "./catalog-executor";

const ctx = z.object(Object.fromEntries(CTX_KEYS.map((k) => [k, z.string().max(2000).optional()]))).strict();

/** A test call as POST /v1/tools/:name/test takes it (and the Studio's Try it): only the known ctx keys, as strings. */
export const testToolBody = z.object({ arguments: z.unknown(), ctx: ctx.optional() }).strict();

export interface TestToolInput {
  arguments: unknown;
  ctx?: TurnContext;
}

/** Extra headroom over the tool's own timeout, so the tool's timeout is what fires. */
const GRACE_MS = 5_000;

/** Runs one call of `name`; 404 (thrown) for a tool the catalog does not know. */
export async function testTool(
  db: Db,
  actor: Principal,
  name: string,
  input: TestToolInput,
): Promise<Record<string, unknown>> {
  const catalog = await getCatalog(db);
  const entry = catalog.entries.get(name);
  if (!entry && getSystemTool(name)) {
    throw new DomainError(
      "conflict",
      `'${name}' is a system tool: it runs only inside a turn of an agent that is offered it, not through a test call`,
    );
  }
  if (!entry) throw notFound(`tool '${name}'`);
  const callId = `test_${crypto.randomBytes(9).toString("base64url")}`;
  const ctx = testContext(actor, input.ctx ?? {});
  const startedAt = Date.now();
  const timeoutS = entry.status === "ok" && entry.kind !== "code" ? entry.definition.timeout : 60;
  const signal = AbortSignal.timeout(timeoutS * 1000 + GRACE_MS);

  const outcome =
    entry.status === "ok" && entry.kind !== "code"
      ? await executeDataTool(entry.definition, input.arguments, ctx, {
          posture: getPosture(),
          secrets: processSecrets,
          callId,
          signal,
          mcp: getMcpCaller(),
        })
      : await createCatalogExecutor({ catalog, posture: getPosture(), secrets: processSecrets }).execute({
          callId,
          tool: name,
          arguments: input.arguments,
          ctx,
          signal,
        });

  const record = (outcome.record ?? {}) as Record<string, unknown>;
  const answer = {
    ...record,
    call_id: (record.call_id as string | undefined) ?? callId,
    tool: name,
    ok: outcome.ok,
    started_at: new Date(startedAt).toISOString(),
    duration_ms: typeof record.duration_ms === "number" ? record.duration_ms : Date.now() - startedAt,
    queued_ms: 0,
    halted: outcome.ok && outcome.halt !== undefined,
    ...(outcome.ok && outcome.halt ? { halt_reason: outcome.halt.reason } : {}),
  };
  await recordAudit(db, actor, { action: "tool.test", target: `tool:${name}`, summary: { ctx, call: answer } });
  return answer;
}

/** The ctx of a try-it call: as given, except that a pinned key's tenant is the key's. */
function testContext(actor: Principal, ctx: TurnContext): TurnContext {
  if (actor.tenant === null) return ctx;
  if (ctx.tenant !== undefined && ctx.tenant !== actor.tenant) {
    throw new DomainError(
      "forbidden",
      `this key is pinned to tenant '${actor.tenant}'; a test call cannot run as tenant '${ctx.tenant}'`,
    );
  }
  return { ...ctx, tenant: actor.tenant };
}
