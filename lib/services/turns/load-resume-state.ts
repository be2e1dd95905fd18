/**
 * What a resume starts from, read back from the database: the turn's last checkpoint and its
 * call journal (DESIGN D9).
 */
import type { Db } from "@/db/database";
import { getCheckpoint, listJournal } from "@/db/queries/checkpoints";
import type { CallJournalRow, JournaledOutcome, JournaledStart, TurnRow } from "@/db/schema";
import { parseToolArguments } from "@/lib/engine/parse-tool-arguments";
import type { CompletedCall, ResumeState, TurnCheckpoint } from "@/lib/engine/ports";
import { outcomeUnknownRecord, type SentCallRecord } from "./sent-call-record";

export interface LoadedResume {
  resume: ResumeState;
  /** The turn's subagent depth (0: a client started it). */
  depth: number;
}

/** The resume state of a turn. A turn without a checkpoint starts over from its user message. */
export async function loadResumeState(db: Db, turn: TurnRow): Promise<LoadedResume> {
  const row = await getCheckpoint(db, turn.id);
  const checkpoint: TurnCheckpoint = row
    ? { ...row.state, completedCalls: [] }
    : { turnId: turn.id, step: -1, messages: [{ role: "user", content: turn.userMessage }], completedCalls: [] };
  const completed: CompletedCall[] = [];
  const inFlight: string[] = [];
  const unknownRecords = new Map<string, unknown>();
  for (const entry of await listJournal(db, turn.id)) {
    const place = {
      identity: entry.identity,
      step: entry.step,
      position: entry.position,
      callId: entry.callId,
      tool: entry.tool,
    };
    const outcome = entry.outcome;
    if (entry.status === "completed" && outcome && !isStart(outcome)) {
      completed.push({ ...place, ...outcome });
      continue;
    }
    inFlight.push(entry.identity);
    // Used only if the call is reported "outcome unknown" (a side-effecting tool).
    unknownRecords.set(entry.identity, outcomeUnknownRecord(sentOf(entry, outcome, checkpoint)));
  }
  return { resume: { checkpoint, completed, inFlight, unknownRecords }, depth: row?.depth ?? 0 };
}

function isStart(outcome: JournaledOutcome | JournaledStart): outcome is JournaledStart {
  return "sent" in outcome;
}

/**
 * What the call sent, from its journal row. A row journaled before rows kept it has only the
 * tool and call id: its arguments are then read from the checkpoint's assistant message.
 */
function sentOf(entry: CallJournalRow, outcome: CallJournalRow["outcome"], checkpoint: TurnCheckpoint): SentCallRecord {
  if (outcome && isStart(outcome))
    return { ...(outcome.sent as unknown as SentCallRecord), call_id: entry.callId, tool: entry.tool };
  const asked = checkpoint.messages
    .flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []))
    .find((c) => c.id === entry.callId && c.name === entry.tool);
  const parsed = asked ? parseToolArguments(asked.arguments) : undefined;
  return {
    call_id: entry.callId,
    tool: entry.tool,
    kind: "data",
    arguments: parsed ? (parsed.ok ? parsed.value : asked?.arguments) : null,
    request: null,
  };
}
