// GET /v1/turns/:id/events — follow a turn from any instance: its recorded events after Last-Event-ID (or ?after=), as SSE with `id: <seq>`, until its terminal event
import { queryObject } from "@/lib/api/query-params";
import type { NextRequest } from "next/server";
import { route, refuseMethods } from "@/lib/api/route";
import { sseStream } from "@/lib/api/sse";
import { errorBody } from "@/lib/api/errors";
import { DomainError, validationFailed } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import { getVisibleTurnSessionOrThrow } from "@/lib/services/sessions/session-access";
import { turnEventFeed } from "@/lib/services/turns/turn-event-feed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Where to start: the Last-Event-ID header (a reconnecting EventSource) wins over ?after=; 0 = from the first event. */
function afterSeq(req: NextRequest): number {
  const raw = req.headers.get("last-event-id") ?? queryObject(req.nextUrl.searchParams).after ?? "0";
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw validationFailed(
      `after (or Last-Event-ID) must be a non-negative integer event seq, not '${raw.slice(0, 40)}'`,
    );
  return Number(raw.trim());
}

export const GET = route<{ id: string }>(
  async (req, { db, params, principal }) => {
    await getVisibleTurnSessionOrThrow(db, principal, params.id);
    const after = afterSeq(req);
    const stream = sseStream();
    const signal = AbortSignal.any([req.signal, stream.signal]);
    void (async () => {
      try {
        for await (const { type, seq, at: _at, ...data } of turnEventFeed(db, params.id, after, signal))
          stream.event(type, data, seq);
      } catch (error) {
        // The stream has started: the failure goes in it, as the last event, and in the log.
        const known = error instanceof DomainError;
        if (!known) log.error("following a turn failed", { turn_id: params.id, ...describeError(error) });
        stream.event(
          "error",
          known
            ? errorBody(error.code, error.message, error.details)
            : errorBody("internal", "reading the turn's events failed; reconnect with Last-Event-ID"),
        );
      } finally {
        stream.close();
      }
    })();
    return stream.response();
  },
  { scopes: ["turns:run", "traces:read"] },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
