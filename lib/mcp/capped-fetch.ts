/**
 * A response-size bound for fetch-shaped clients (the MCP SDK's transport,
 * during discovery): each response body may be at most `maxBytes` (decoded),
 * whatever its framing (JSON or a long-lived SSE stream).
 */
import type { FetchLike } from "@/lib/egress";

/**
 * Wraps `inner` (the guard's fetch): a response announcing more than `maxBytes` (Content-Length)
 * or delivering more is cut there: its body errors, and `onOver` is called
 * (once per response) so the caller can abort what it is doing instead of
 * waiting on a stream that will never complete. Bodies within the bound pass
 * unchanged.
 */
export function cappedFetch(inner: FetchLike, maxBytes: number, onOver: () => void): FetchLike {
  return async (input, init) => {
    const res = await inner(input, init);
    if (res.body === null) return res;
    const tooLarge = () => new RangeError(`response larger than ${maxBytes} bytes`);
    const announced = Number(res.headers.get("content-length") ?? "");
    if (Number.isFinite(announced) && announced > maxBytes) {
      await res.body.cancel().catch(() => undefined);
      onOver();
      throw new TypeError("fetch failed", { cause: tooLarge() });
    }
    let total = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > maxBytes) {
          onOver();
          controller.error(tooLarge());
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(counter), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
