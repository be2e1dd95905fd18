/**
 * The turns this process is running right now. Kept on globalThis because Next.js may load
 * a module once per route bundle: the registry must be one per process, not one per copy.
 */
const KEY = Symbol.for("insika.activeTurns");

type Registry = Set<string>;

function registry(): Registry {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (holder[KEY] ??= new Set());
}

export function isTurnActive(turnId: string): boolean {
  return registry().has(turnId);
}

/** Marks a turn as running here; false if it already was (the caller must not run it). */
export function markTurnActive(turnId: string): boolean {
  const turns = registry();
  if (turns.has(turnId)) return false;
  turns.add(turnId);
  return true;
}

export function markTurnInactive(turnId: string): void {
  registry().delete(turnId);
}

/** The ids of the turns running here (the lease heartbeat renews exactly these). */
export function activeTurnIds(): string[] {
  return [...registry()];
}
