/** One write of the call journal (CheckpointStore.callStarted / callCompleted), its failure the turn's. */
import type { CheckpointStore } from "./ports";
import { errorMessage, ownFailureCode, PERSISTENCE_CODES, TurnFailure } from "./turn-failure";

/**
 * Writes `entry` with the journal's `kind` method (nothing to do without a journal or that
 * method); resolves with the turn's failure when the write fails, else undefined. Never rejects.
 */
export async function writeJournal<K extends "callStarted" | "callCompleted">(
  journal: CheckpointStore | undefined,
  kind: K,
  entry: Parameters<NonNullable<CheckpointStore[K]>>[0],
): Promise<TurnFailure | undefined> {
  const write = journal?.[kind] as ((entry: unknown) => void | Promise<void>) | undefined;
  if (!journal || !write) return undefined;
  try {
    await write.call(journal, entry);
    return undefined;
  } catch (error) {
    return new TurnFailure(
      ownFailureCode(error, PERSISTENCE_CODES) ?? "checkpoint_failed",
      `checkpoint failed: ${errorMessage(error)}`,
    );
  }
}
