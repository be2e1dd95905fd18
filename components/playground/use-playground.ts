"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { createSessionAction } from "@/app/(studio)/playground/actions";
import { readSse } from "./sse";
import { followTurn } from "./turn-follower";
import { applyEvent, type PlaygroundTurn } from "./turn-model";

/**
 * The playground's conversation: creates the session on the first message, then streams
 * each turn. A turn that stops to wait for an approval is followed by polling until it ends.
 */
export function usePlayground(agentId: string, initialSession: string | null) {
  const [sessionId, setSessionId] = useState(initialSession);
  const [turns, setTurns] = useState<PlaygroundTurn[]>([]);
  const [error, setError] = useState<string | null>(null);
  const busy = turns.some((t) => t.status === "running");
  const counter = useRef(0);
  const followers = useRef(new Map<string, ReturnType<typeof followTurn>>());
  useEffect(() => {
    const all = followers.current;
    return () => all.forEach((f) => f.stop());
  }, []);

  const update = useCallback(
    (key: string, fn: (t: PlaygroundTurn) => PlaygroundTurn) =>
      setTurns((all) => all.map((t) => (t.key === key ? fn(t) : t))),
    [],
  );

  const follow = useCallback(
    (key: string, turnId: string, afterSeq: number) => {
      followers.current.get(key)?.stop();
      const follower = followTurn(
        turnId,
        afterSeq,
        (event, data) => update(key, (t) => applyEvent(t, event, data)),
        (message) =>
          update(key, (t) => ({ ...t, error: message, status: t.status === "running" ? "failed" : t.status })),
      );
      followers.current.set(key, follower);
    },
    [update],
  );

  const send = useCallback(
    async (message: string) => {
      setError(null);
      let sid = sessionId;
      if (!sid) {
        const created = await createSessionAction(agentId);
        if (!created.ok) return setError(created.error);
        sid = created.value;
        setSessionId(sid);
        window.history.replaceState(
          null,
          "",
          `/playground?agent=${encodeURIComponent(agentId)}&session=${encodeURIComponent(sid)}`,
        );
      }
      const key = `t${++counter.current}`;
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
          return update(key, (t) => ({ ...t, status: "failed", error: body?.error?.message ?? `HTTP ${res.status}` }));
        }
        let turnId: string | undefined;
        let last: { event: string; seq?: number } | undefined;
        for await (const { event, data } of readSse(res.body)) {
          if (event === "turn_started") turnId = String(data.turn_id ?? "");
          last = { event, seq: typeof data.seq === "number" ? data.seq : undefined };
          update(key, (t) => applyEvent(t, event, data));
        }
        if (last?.event === "turn_waiting" && turnId) follow(key, turnId, last.seq ?? 0);
        update(key, (t) =>
          t.status === "running"
            ? { ...t, status: "failed", error: "the stream ended before the turn did (see the trace)" }
            : t,
        );
      } catch (e) {
        update(key, (t) => ({ ...t, status: "failed", error: `connection lost: ${(e as Error).message}` }));
      }
    },
    [agentId, sessionId, update, follow],
  );

  /** This browser decided an approval of the turn: follow it closely now. */
  const decided = useCallback((key: string) => followers.current.get(key)?.nudge(), []);

  const reset = () => {
    followers.current.forEach((f) => f.stop());
    followers.current.clear();
    setSessionId(null);
    setTurns([]);
    window.history.replaceState(null, "", `/playground?agent=${encodeURIComponent(agentId)}`);
  };

  return { sessionId, turns, busy, error, send, reset, decided };
}
