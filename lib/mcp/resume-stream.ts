/**
 * Resumability (Streamable HTTP, protocol 2025-11-25, SEP-1699): a server may
 * end a request's SSE stream before the response (to free a connection, or
 * because it was cut), having given each event an `id` and a `retry`
 * interval. The client then waits that interval and opens a GET stream with
 * `Last-Event-ID`; the server replays what the lost stream missed, the
 * response included, on that GET stream.
 */
import type { McpCallInfo, McpSend, McpSendResult } from "@/lib/http-tools";
import { readRpcResponse, type ReadRpcResult } from "./read-rpc-response";
import { parseSse } from "./sse-events";
import { watchForAnswer } from "./watch-for-answer";

/** How hard a call tries to resume (all within the call's deadline, the tool's timeout). */
export const RESUME_LIMITS = {
  /** GET reconnections per call before giving up. */
  maxResumes: 3,
  /** The wait when the server sent no `retry` field. */
  defaultRetryMs: 1000,
  /** A larger `retry` is shortened to this: a server must not park a call for minutes. */
  maxRetryMs: 5000,
};

type Received = Extract<McpSendResult, { ok: true }>;

/** The SSE stream of `r` ended without the response: worth resuming (2xx, SSE, read whole). */
export function endedBeforeAnswer(r: Received): boolean {
  if (r.status < 200 || r.status >= 300 || r.truncated) return false;
  const type = Object.entries(r.headers).find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
  return type.toLowerCase().includes("text/event-stream");
}

/**
 * Resumes the stream that carried request `id` until the response arrives:
 * at most RESUME_LIMITS.maxResumes GETs, each after the server's latest
 * `retry` (capped), each with the latest event id as `Last-Event-ID` and
 * `headers` (session id, protocol version). The response to `id` is taken
 * from a resumed stream as soon as it arrives (that stream is not read on).
 * A failure names what happened: `MCP stream ended before the result;
 * resumed N times; <why it stopped>`. Never throws.
 */
export async function resumeForAnswer(
  firstBody: Buffer,
  id: number,
  send: McpSend,
  headers: Record<string, string>,
  info: Pick<McpCallInfo, "remainingMs" | "signal">,
): Promise<ReadRpcResult> {
  const first = parseSse(firstBody.toString("utf8"));
  let lastEventId = first.lastEventId;
  let retryMs = first.retryMs;
  // A GET has no body to describe.
  const getHeaders = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== "content-type"));
  const stop = (resumed: number, why: string): ReadRpcResult => ({
    ok: false,
    error: `MCP stream ended before the result; resumed ${resumed} time${resumed === 1 ? "" : "s"}; ${why}`,
  });

  for (let resumed = 0; ; resumed += 1) {
    if (lastEventId === null) return stop(resumed, "the server sent no event id to resume from");
    if (resumed >= RESUME_LIMITS.maxResumes)
      return stop(resumed, `giving up after ${RESUME_LIMITS.maxResumes} reconnections`);
    const wait = Math.min(retryMs ?? RESUME_LIMITS.defaultRetryMs, RESUME_LIMITS.maxRetryMs);
    if (info.remainingMs() <= wait)
      return stop(resumed, "no time left before the tool's timeout to wait the server's retry interval");
    if (!(await sleep(wait, info.signal))) return stop(resumed, "the call was cancelled");

    const sent = await send({
      method: "GET",
      headers: { ...getHeaders, Accept: "text/event-stream", "Last-Event-ID": lastEventId },
      stopReading: watchForAnswer(id),
    });
    if (!sent.ok) return stop(resumed + 1, sent.error);
    if (sent.status === 405) return stop(resumed + 1, "the server does not offer a GET stream to resume on (HTTP 405)");
    if (sent.status < 200 || sent.status >= 300)
      return stop(resumed + 1, `the resumed stream was refused with HTTP ${sent.status}`);
    if (!endedBeforeAnswer(sent)) return stop(resumed + 1, "the resumed stream is not an event stream");
    const text = sent.body.toString("utf8");
    const answer = readRpcResponse(text, "text/event-stream", id);
    if (answer.ok) return answer;
    const resumedStream = parseSse(text);
    lastEventId = resumedStream.lastEventId ?? lastEventId;
    retryMs = resumedStream.retryMs ?? retryMs;
  }
}

/** Waits `ms`; false when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
