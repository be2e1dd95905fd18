/**
 * The bound on a streamed provider answer. A model server chooses how long its SSE stream
 * runs and how large a tool call's arguments grow; the SDK keeps all of it in memory until
 * the step ends. Counting the decoded bytes as they reach the SDK turns an answer that never
 * ends (or a gzip bomb) into a failed step instead of a process out of memory.
 */
import { ProviderError } from "./provider-error";

/** The message of an answer past the cap (one wording for announced and counted sizes). */
function tooLarge(maxBytes: number): ProviderError {
  return new ProviderError(
    `provider error: the answer is larger than ${maxBytes} bytes (the limit of one model step); the connection was closed`,
  );
}

/**
 * `response` with a body that errors with a ProviderError once more than `maxBytes` decoded
 * bytes have passed (and cancels the source, which closes the connection). A Content-Length
 * above the cap fails at once. Status, headers and url are kept; a response without a body
 * is returned as it is.
 */
export async function capStreamedAnswer(response: Response, maxBytes: number): Promise<Response> {
  if (response.body === null) return response;
  const announced = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(announced) && announced > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  let total = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > maxBytes) controller.error(tooLarge(maxBytes));
      else controller.enqueue(chunk);
    },
  });
  const capped = new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // The SDK names the endpoint from the request, but keep what fetch would say anyway.
  Object.defineProperty(capped, "url", { value: response.url });
  return capped;
}
