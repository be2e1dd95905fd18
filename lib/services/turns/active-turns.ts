/**
 * The turns this process is running right now, each with how long its lease is known to
 * hold (turn-leases.ts), and whether the process is stopping. Kept on globalThis because
 * Next.js may load a module once per route bundle: the registry must be one per process, not
 * one per copy.
 */
const KEY = Symbol.for("insika.activeTurns");

/** A turn marked running here whose lease this process does not hold yet (a resume claiming it). */
const CLAIMING = -1;

interface Registry {
  /**
   * Turn id → the time (ms, this machine's clock) until which a committed write gave this
   * process its lease; 0 unknown; CLAIMING before its claim.
   */
  turns: Map<string, number>;
  /** Set once at shutdown (turn-leases.ts): from then on no lease is noted as held. */
  stopping: boolean;
  /** Writes in flight that give this process a lease (a claim, a turn's insert): a stop waits for them. */
  leaseWrites: Set<Promise<unknown>>;
}

function registry(): Registry {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (holder[KEY] ??= { turns: new Map(), stopping: false, leaseWrites: new Set() });
}

export function isTurnActive(turnId: string): boolean {
  return registry().turns.has(turnId);
}

/**
 * Marks a turn as running here; false if it already was (the caller must not run it).
 * `claiming`: the lease is not this process's yet (noteLeaseHeld once the claim commits).
 */
export function markTurnActive(turnId: string, options: { claiming?: boolean } = {}): boolean {
  const { turns } = registry();
  if (turns.has(turnId)) return false;
  turns.set(turnId, options.claiming ? CLAIMING : 0);
  return true;
}

export function markTurnInactive(turnId: string): void {
  registry().turns.delete(turnId);
}

/** The turns running here whose lease this process took (the lease heartbeat renews exactly these). */
export function leasedTurnIds(): string[] {
  return [...registry().turns].filter(([, until]) => until !== CLAIMING).map(([id]) => id);
}

/**
 * A committed write (the turn's insert, a claim, a renewal) gave this process the lease of a
 * turn running here until `until`. Call it only after that commit. Once the process stops it
 * notes nothing: its leases are given up, so every write's fence reads its row.
 */
export function noteLeaseHeld(turnId: string, until: number): void {
  const { turns, stopping } = registry();
  const known = turns.get(turnId);
  if (!stopping && known !== undefined && until > known) turns.set(turnId, until);
}

/**
 * Until when this process surely holds the lease of a turn running here (0: not known).
 * Nobody can take a lease over before it expires (claimTurn), so until then the fence needs
 * no read; see TurnRecorder for where that holds.
 */
export function leaseHeldUntil(turnId: string): number {
  return Math.max(0, registry().turns.get(turnId) ?? 0);
}

export function isStopping(): boolean {
  return registry().stopping;
}

/** Runs `write`, a write that gives this process a lease, where a stop can wait for it. */
export function trackLeaseWrite<T>(write: Promise<T>): Promise<T> {
  const { leaseWrites } = registry();
  leaseWrites.add(write);
  const forget = () => leaseWrites.delete(write);
  write.then(forget, forget);
  return write;
}

/**
 * The process stops: no lease is noted as held from now on, and what was noted is forgotten
 * (every fence reads its row). Resolves once the lease writes already in flight have settled.
 */
export async function beginStopping(): Promise<void> {
  const held = registry();
  held.stopping = true;
  for (const [id, until] of held.turns) if (until > 0) held.turns.set(id, 0);
  await Promise.allSettled([...held.leaseWrites]);
}
