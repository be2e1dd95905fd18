/**
 * The turns this process is running right now, each with how long its lease is known to
 * hold (turn-leases.ts). Kept on globalThis because Next.js may load a module once per route
 * bundle: the registry must be one per process, not one per copy.
 */
const KEY = Symbol.for("insika.activeTurns");

/** Turn id → the time (ms, this machine's clock) until which a committed write gave this process its lease; 0 unknown. */
type Registry = Map<string, number>;

function registry(): Registry {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (holder[KEY] ??= new Map());
}

export function isTurnActive(turnId: string): boolean {
  return registry().has(turnId);
}

/** Marks a turn as running here; false if it already was (the caller must not run it). */
export function markTurnActive(turnId: string): boolean {
  const turns = registry();
  if (turns.has(turnId)) return false;
  turns.set(turnId, 0);
  return true;
}

export function markTurnInactive(turnId: string): void {
  registry().delete(turnId);
}

/** The ids of the turns running here (the lease heartbeat renews exactly these). */
export function activeTurnIds(): string[] {
  return [...registry().keys()];
}

/**
 * A committed write (the turn's insert, a claim, a renewal) gave this process the lease of a
 * turn running here until `until`. Call it only after that commit.
 */
export function noteLeaseHeld(turnId: string, until: number): void {
  const turns = registry();
  const known = turns.get(turnId);
  if (known !== undefined && until > known) turns.set(turnId, until);
}

/** This process gave the lease of a turn running here up (or may have): the fence reads the row again. */
export function noteLeaseReleased(turnId: string): void {
  const turns = registry();
  if (turns.has(turnId)) turns.set(turnId, 0);
}

/**
 * Until when this process surely holds the lease of a turn running here (0: not known).
 * Nobody can take a lease over before it expires (claimTurn), so until then the fence needs
 * no read; see TurnRecorder for where that holds.
 */
export function leaseHeldUntil(turnId: string): number {
  return registry().get(turnId) ?? 0;
}
