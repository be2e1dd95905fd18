"use client";
import { useCallback, useRef, useState } from "react";
import { createSessionAction } from "@/app/(studio)/playground/actions";
import { readSse } from "./sse";
import { applyEvent, type PlaygroundTurn } from "./turn-model";

/** The playground's conversation: creates the session on the first message, then streams each turn. */
export function usePlayground(agentId: string, initialSession: string | null) {
  const [sessionId, setSessionId] = useState(initialSession);
  const [turns, setTurns] = useState<PlaygroundTurn[]>([]);
  const [error, setError] = useState<string | null>(null);
  const busy = turns.some((t) => t.status === "running");
  const counter = useRef(0);

  const send = useCallback(
    async (message: string) => {
      setError(null);
      let sid = sessionId;
      if (!sid) {
        const created = await createSessionAction(agentId);
        if (!created.ok) return setError(created.error);
        sid = created.value;
        setSessionId(sid);
        window.history.replaceState(null, "", `/playground?agent=${encodeURIComponent(agentId)}&session=${encodeURIComponent(sid)}`);
      }
      const key = `t${++counter.current}`;
      const update = (fn: (t: PlaygroundTurn) => PlaygroundTurn) => setTurns((all) => all.map((t) => (t.key === key ? fn(t) : t)));
      setTurns((all) => [...all, { key, message, status: "running", parts: [], warnings: [] }]);
      try {
        // eslint-disable-next-line no-restricted-globals -- the browser calling this app's own origin (cookie auth), not egress
        const res = await fetch(`/studio-api/sessions/${encodeURIComponent(sid)}/turns`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream" },
          body: JSON.stringify({ message }),
        });
        if (!res.ok || !res.body) {
          const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
          return update((t) => ({ ...t, status: "failed", error: body?.error?.message ?? `HTTP ${res.status}` }));
        }
        for await (const { event, data } of readSse(res.body)) update((t) => applyEvent(t, event, data));
        update((t) => (t.status === "running" ? { ...t, status: "failed", error: "the stream ended before the turn did (see the trace)" } : t));
      } catch (e) {
        update((t) => ({ ...t, status: "failed", error: `connection lost: ${(e as Error).message}` }));
      }
    },
    [agentId, sessionId],
  );

  const reset = () => {
    setSessionId(null);
    setTurns([]);
    window.history.replaceState(null, "", `/playground?agent=${encodeURIComponent(agentId)}`);
  };

  return { sessionId, turns, busy, error, send, reset };
}
