/**
 * Aborts `controller` when `source` aborts, with the source's reason (at once if it already
 * has), until the returned function is called. What `AbortSignal.any([controller.signal,
 * source])` gives, without a second signal: in Node that one costs several times a listener
 * (it tracks each source and each dependent weakly), and the engine makes one per tool call
 * and per batch. So a controller here is aborted by its owner or by its source, whichever
 * comes first; a later abort does not change its reason. Call the returned function when the
 * controller's work ends, so a long-lived source (the turn's signals) does not keep a
 * listener per call it ever ran.
 */
export function followSignal(controller: AbortController, source: AbortSignal): () => void {
  if (source.aborted) {
    controller.abort(source.reason);
    return noop;
  }
  const onAbort = () => controller.abort(source.reason);
  source.addEventListener("abort", onAbort, { once: true });
  return () => source.removeEventListener("abort", onAbort);
}

function noop(): void {}
