/**
 * The fetch of the OAuth client-credentials flow (metadata documents and the token request):
 * the egress guard's, with every answer read whole up to a cap and every request under a
 * deadline. The answers come from the MCP server and whatever authorization server it names,
 * and are read whole (`res.json()`): unbounded, one that never ends would be buffered until
 * memory runs out, and one that never finishes would hold the import, or every call waiting
 * on a token, forever.
 */
import { guardedFetch, type EgressPosture, type FetchLike } from "@/lib/egress";
import { cappedFetch } from "./capped-fetch";

/** Bounds of each OAuth request. Real metadata documents and token answers are a few KiB. */
export const OAUTH_FETCH_LIMITS = { maxResponseBytes: 256 * 1024, timeoutMs: 10_000 };

/**
 * A fetch for `posture` whose bodies stream (a probe may look at the status and cancel) but
 * stop at `maxResponseBytes` (decoded): reading more fails with `the OAuth server's answer is
 * larger than <size>`. The request and the reading of its body share a deadline of `timeoutMs`:
 * past it, either fails with `the OAuth request to <url> did not answer within <ms> ms`. The
 * Authorization header (client_secret_basic) is handled as a secret.
 */
export function oauthFetch(posture: EgressPosture, limits = OAUTH_FETCH_LIMITS): FetchLike {
  const inner = cappedFetch(
    guardedFetch(posture, { secretHeaderNames: ["authorization"] }),
    limits.maxResponseBytes,
    () => undefined,
  );
  return async (input, init = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    const late = () => new Error(`the OAuth request to ${url} did not answer within ${limits.timeoutMs} ms`);
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    let res: Response;
    try {
      res = await inner(input, { ...init, signal });
    } catch (error) {
      throw deadline.aborted && !init.signal?.aborted ? late() : describe(error, limits.maxResponseBytes);
    }
    if (res.body === null) return res;
    // The body is read under the same deadline and its errors say what happened.
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          controller.error(
            deadline.aborted && !init.signal?.aborted ? late() : describe(error, limits.maxResponseBytes),
          );
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

// The guard and the cap report as fetch does (`TypeError("fetch failed", { cause })`); the cause
// says why, and is what an operator reads in the import's error.
function describe(error: unknown, maxBytes: number): unknown {
  const cause = error instanceof TypeError && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof RangeError) return new Error(`the OAuth server's answer is larger than ${maxBytes} bytes`);
  if (error instanceof TypeError && error.message === "fetch failed" && cause instanceof Error)
    return new Error(`fetch failed: ${cause.message}`, { cause: error });
  return error;
}
