"use client";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { failureText } from "@/components/trace/failure-text";
import { ApprovalCard } from "./approval-card";
import type { PlaygroundTurn, TurnPart } from "./turn-model";

const STATUS_TONE = { running: "blue", completed: "green", halted: "violet", waiting: "amber", failed: "red" } as const;

function CallChip({ part, sessionId }: { part: Extract<TurnPart, { type: "call" }>; sessionId: string | null }) {
  const r = part.result;
  const blocked = r?.error?.startsWith("destination blocked:");
  const label = !r ? "running…" : blocked ? "BLOCKED" : !r.ok ? "FAILED" : r.halted ? "HALTED" : "OK";
  const tone = !r ? "blue" : blocked || !r.ok ? "red" : r.halted ? "violet" : "green";
  return (
    <div
      data-testid="inline-call"
      data-tool={part.tool}
      data-state={label}
      className="flex flex-col gap-1 rounded border border-zinc-200 bg-zinc-50 p-2 text-xs dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={tone}>{label}</Badge>
        <span className="font-mono font-medium">{part.tool}</span>
        <span className="break-all font-mono text-zinc-500">{JSON.stringify(part.arguments)}</span>
        {r?.duration_ms !== undefined ? <span className="text-zinc-500">{Math.round(r.duration_ms)} ms</span> : null}
        {sessionId && r ? (
          <Link
            className="ml-auto underline"
            href={`/sessions/${sessionId}?call=${encodeURIComponent(part.call_id)}#call-${part.call_id}`}
          >
            Open call
          </Link>
        ) : null}
      </div>
      {r?.error ? <p className="break-words text-red-700 dark:text-red-400">{r.error}</p> : null}
    </div>
  );
}

/** One turn: the user's message, then text and tool calls as they streamed, then how it ended. */
export function TurnView({
  turn,
  sessionId,
  onApprovalDecided,
}: {
  turn: PlaygroundTurn;
  sessionId: string | null;
  onApprovalDecided?: () => void;
}) {
  return (
    <li data-testid="playground-turn" data-status={turn.status} className="flex flex-col gap-2">
      <p className="self-end rounded-lg bg-sky-600 px-3 py-2 text-sm text-white">{turn.message}</p>
      <div className="flex max-w-[90%] flex-col gap-2 self-start">
        {turn.parts.map((p, i) =>
          p.type === "text" ? (
            <p key={i} className="whitespace-pre-wrap rounded-lg bg-zinc-100 px-3 py-2 text-sm dark:bg-zinc-800">
              {p.text}
            </p>
          ) : p.type === "call" ? (
            <CallChip key={p.call_id} part={p} sessionId={sessionId} />
          ) : (
            <ApprovalCard key={p.approval_id} part={p} onDecided={onApprovalDecided} />
          ),
        )}
        {turn.status === "halted" && turn.content && !turn.parts.some((p) => p.type === "text") ? (
          <p className="whitespace-pre-wrap rounded-lg bg-violet-100 px-3 py-2 text-sm dark:bg-violet-950">
            {turn.content}
          </p>
        ) : null}
        {turn.warnings.map((w) => (
          <p key={w} className="text-xs text-amber-700 dark:text-amber-400">
            Warning: {w}
          </p>
        ))}
        {turn.error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {turn.status === "failed" ? failureText(turn.error, turn.fault) : turn.error}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <Badge tone={STATUS_TONE[turn.status]}>{turn.status}</Badge>
          {turn.status === "waiting" ? (
            <span className="text-zinc-500">
              waiting for a decision (here or on the{" "}
              <Link className="underline" href="/approvals">
                Approvals
              </Link>{" "}
              page)
            </span>
          ) : null}
          {turn.status === "halted" ? (
            <span className="text-zinc-500">
              ended by halt_when:{" "}
              {turn.parts.some((p) => p.type === "text")
                ? "kept the lead-in, added nothing"
                : turn.content
                  ? "published the say value"
                  : "published nothing"}
            </span>
          ) : null}
          {sessionId && turn.turnId && turn.status !== "running" ? (
            <Link className="underline" href={`/sessions/${sessionId}?turn=${turn.turnId}#turn-${turn.turnId}`}>
              Open trace
            </Link>
          ) : null}
        </div>
      </div>
    </li>
  );
}
