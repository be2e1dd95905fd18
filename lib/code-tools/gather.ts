/**
 * Fan-out inside one tool (the spec's `Concurrency.gather`): a bounded parallel map for code
 * tools and system tools. It is not the turn's tool_concurrency cap (that one bounds what the
 * model fans out); a tool that fans out bounds itself with this.
 */

export interface GatherOptions {
  /** At most this many `fn` calls in flight (default 8). */
  concurrency?: number;
  /** Aborting it stops starting new items and rejects with its reason. */
  signal?: AbortSignal;
}

/**
 * Maps `items` through `fn` with at most `concurrency` calls in flight, starting them in
 * input order; resolves with the results in input order. The first rejection (or an abort)
 * rejects at once, starts nothing more, and aborts the signal handed to the calls still
 * running. A RangeError for a concurrency that is not an integer >= 1.
 */
export async function gather<T, R>(
  items: readonly T[],
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R> | R,
  options: GatherOptions = {},
): Promise<R[]> {
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`gather: concurrency must be an integer >= 1, got ${concurrency}`);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  signal.throwIfAborted();
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal.throwIfAborted();
      const index = next++;
      results[index] = await fn(items[index] as T, index, signal);
    }
  };
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, worker);
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      Promise.all(workers).then(
        () => (signal.removeEventListener("abort", onAbort), resolve()),
        (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(error)),
      );
    });
  } catch (error) {
    stop.abort(error);
    throw error;
  }
  return results;
}
