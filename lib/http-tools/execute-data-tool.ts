/**
 * One data tool call, end to end: validate the arguments, build the request,
 * send it through the egress guard, shape the result for the model, decide
 * halt_when, and write the call record. Everything the model or the trace
 * receives is redacted by secret value first.
 */
import { randomUUID } from "node:crypto";
import type { HaltVerdict } from "@/lib/engine/ports";
import type { EgressPosture, Resolver } from "@/lib/egress";
import { describeError, log } from "@/lib/log";
import { redactText } from "@/lib/secrets/redact";
import type { SecretSource } from "@/lib/secrets/secret-source";
import { evaluateHalt } from "@/lib/tools/halt";
import { DEFAULT_TOOL_TIMEOUT_S, type DataToolDefinition, type TurnContext } from "@/lib/tools/types";
import { validateArguments } from "@/lib/tools/validate-arguments";
import { MAX_TOOL_TIMEOUT_S } from "@/lib/tools/validate-definition";
import { buildRequest } from "./build-request";
import { copyArguments } from "./copy-arguments";
import { finalizeRecord, redactContent, TOO_DEEP_TO_REDACT, WITHHELD_TOO_DEEP, type CallRecord } from "./call-record";
import { bodyText, extractResult } from "./extract-result";
import { executeMcpTool, type McpCaller } from "./execute-mcp-tool";
import { sendBuiltRequest, type Exchange, type SendContext } from "./send-built-request";
import { errorMessage } from "@/lib/errors";

/** What executeDataTool needs besides the call itself. */
export interface ExecuteDataToolDeps {
  /** The egress posture of this process (parsed once; see lib/egress parsePosture). */
  posture: EgressPosture;
  /** Where `{{secret.*}}` values come from. */
  secrets: SecretSource;
  /** DNS for name-based URLs (default: the system resolver, all answers). */
  resolver?: Resolver;
  /** The provider's call id, for the record; generated when absent. */
  callId?: string;
  /** Cancels the call (turn cancelled, engine tool_timeout). */
  signal?: AbortSignal;
  /** For duration_ms (default performance.now). */
  clock?: { now(): number };
  /** Runs `request.protocol: "mcp"` tools (DESIGN D7); absent = MCP unavailable. */
  mcp?: McpCaller;
}

/**
 * The result of one call; assignable to the engine's ToolOutcome. `content`
 * is JSON text (`{"error": ...}` on failure); `halt` is set only on success
 * when halt_when matched (publishing is the engine's job).
 */
export type DataToolResult =
  | { ok: true; content: string; halt?: HaltVerdict; record: CallRecord }
  | { ok: false; content: string; error: string; record: CallRecord };

/**
 * Executes one data (or MCP) tool call. A call the schema does not allow, or
 * whose request cannot be built (a missing secret, a `..` path value, a CR/LF
 * header...), never reaches the network. Sends through lib/egress with
 * `deps.posture`; `tool.timeout` (default 30 s) bounds the whole call,
 * redirects included; response bodies are capped at 1 MiB decoded. Never
 * throws; secret values never appear in the content, the error, the record
 * or the log lines it writes.
 */
export async function executeDataTool(
  tool: DataToolDefinition,
  args: unknown,
  ctx: TurnContext,
  deps: ExecuteDataToolDeps,
): Promise<DataToolResult> {
  const started = clockNow(deps);
  const record: CallRecord = {
    call_id: deps.callId ?? `call_${randomUUID()}`,
    tool: typeof tool?.name === "string" ? tool.name : "",
    kind: tool?.request?.protocol === "mcp" ? "mcp" : "data",
    arguments: copyArguments(args),
    request: null,
    status: null,
    ok: false,
    duration_ms: 0,
    result: null,
  };
  // Read by finish; filled once the request is built (secrets are read there).
  const call: CallState = { record, started, deps, secretValues: [] };

  try {
    const checked = validateArguments(tool.parameters, args);
    if (!checked.ok) return failWith(call, checked.error);

    const built = buildRequest(tool, args, ctx, deps.secrets);
    call.secretValues = built.secretValues;
    if (!built.ok) return failWith(call, built.error);

    // Ingestion bounds the timeout; a stored row that predates that rule must
    // still not overflow a timer (Node turns an overflow into 1 ms).
    const timeoutS =
      Number.isFinite(tool.timeout) && tool.timeout > 0
        ? Math.min(tool.timeout, MAX_TOOL_TIMEOUT_S)
        : DEFAULT_TOOL_TIMEOUT_S;
    const sendCtx: SendContext = {
      posture: deps.posture,
      resolver: deps.resolver,
      deadline: performance.now() + timeoutS * 1000,
      timeoutS,
      signal: deps.signal,
    };

    if (record.kind === "mcp") {
      const outcome = await executeMcpTool(tool, args as Record<string, unknown>, ctx, {
        mcp: deps.mcp,
        built: built.request,
        secretHeaders: built.secretHeaders,
        sendCtx,
        onExchange: (exchange) => noteExchange(record, exchange),
      });
      if (tool.halt_when && outcome.ok) record.halted = outcome.halt !== undefined;
      if (outcome.ok && outcome.halt) record.halt_reason = outcome.halt.reason;
      return finish(call, outcome);
    }

    const exchange = await sendBuiltRequest(built.request, built.secretHeaders, sendCtx);
    noteExchange(record, exchange);
    const result = exchange.result;
    if (!result.ok) return failWith(call, exchange.error ?? result.error);

    const extracted = extractResult(tool.response, {
      status: result.status,
      body: result.body,
      truncated: result.truncated,
    });
    if (!extracted.ok) return finish(call, extracted);
    if (!tool.halt_when) return finish(call, extracted);
    // halt_when reads the body as received, whatever response.extract shows;
    // a body cut at the cap is never a basis for ending the turn.
    const verdict = result.truncated
      ? { halt: false as const }
      : evaluateHalt(tool.halt_when, result.status, bodyText(result.body));
    record.halted = verdict.halt;
    if (!verdict.halt) return finish(call, extracted);
    record.halt_reason = verdict.reason;
    return finish(call, { ...extracted, halt: { say: verdict.say, reason: verdict.reason } });
  } catch (e) {
    // Every step above is written not to throw; this is the last line that
    // keeps a bug from reaching the turn loop (DESIGN §3.3).
    quietly(() =>
      log.error("data tool call failed unexpectedly", {
        tool: record.tool,
        call_id: record.call_id,
        ...redactError(e, call.secretValues),
      }),
    );
    return failWith(call, `internal error while calling the tool: ${errorMessage(e)}`);
  }
}

// One call's bookkeeping, passed to the module-level helpers below (closures
// created per call cost an allocation each on the hot path).
interface CallState {
  record: CallRecord;
  started: number;
  deps: ExecuteDataToolDeps;
  /** Every secret value read for this call: redacted from everything returned. */
  secretValues: string[];
}

function clockNow(deps: ExecuteDataToolDeps): number {
  return deps.clock ? deps.clock.now() : performance.now();
}

type Outcome = { ok: true; content: string; halt?: HaltVerdict } | { ok: false; content: string; error: string };

function finish(call: CallState, outcome: Outcome): DataToolResult {
  const { record, secretValues } = call;
  const content = redactContent(outcome.content, secretValues);
  if (content === WITHHELD_TOO_DEEP && outcome.ok) outcome = { ok: false, content, error: TOO_DEEP_TO_REDACT };
  record.ok = outcome.ok;
  record.duration_ms = Math.max(0, Math.round(clockNow(call.deps) - call.started));
  if (!outcome.ok) record.error = outcome.error;
  const safe = finalizeRecord(record, content, secretValues);
  if (!outcome.ok) {
    const error = redactText(outcome.error, secretValues);
    if (safe.egress?.verdict === "blocked") {
      // Egress refusals are silent to the user (spec "Egress"); the log says so.
      const { rule, hint } = safe.egress;
      quietly(() =>
        log.warn("data tool call blocked by egress", { tool: safe.tool, call_id: safe.call_id, error, rule, hint }),
      );
    }
    return { ok: false, content, error, record: safe };
  }
  const halt = outcome.halt
    ? {
        say: outcome.halt.say === null ? null : redactText(outcome.halt.say, secretValues),
        reason: redactText(outcome.halt.reason, secretValues),
      }
    : undefined;
  return halt ? { ok: true, content, halt, record: safe } : { ok: true, content, record: safe };
}

function failWith(call: CallState, error: string): DataToolResult {
  return finish(call, { ok: false, content: JSON.stringify({ error }), error });
}

function noteExchange(record: CallRecord, exchange: Exchange): void {
  record.request = exchange.request;
  record.status = exchange.status;
  if (exchange.egress) record.egress = exchange.egress;
  else delete record.egress;
  if (exchange.redirects) record.redirects = exchange.redirects;
  else delete record.redirects;
}

// Logging must not be how a tool call throws (the logger reads the env, which can be invalid).
function quietly(write: () => void): void {
  try {
    write();
  } catch {
    // nothing sensible to do: the result still carries the error
  }
}

function redactError(e: unknown, secretValues: readonly string[]): { error: string; stack?: string } {
  const d = describeError(e);
  return { error: redactText(d.error, secretValues), ...(d.stack ? { stack: redactText(d.stack, secretValues) } : {}) };
}
