/**
 * Who wants to know how long group-commit flushes take (metrics): one observer per
 * process, none by default.
 */
type FlushObserver = (writes: number, ms: number) => void;

let observer: FlushObserver | undefined;

/** Sets (or with undefined, clears) the flush observer. */
export function setFlushObserver(next: FlushObserver | undefined): void {
  observer = next;
}

/** Reports one flush: how many writes it held and how long it took, in ms. */
export function observeFlush(writes: number, ms: number): void {
  observer?.(writes, ms);
}
