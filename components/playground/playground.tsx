"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { controlClass, inputClass } from "@/components/ui/field";
import { TurnView } from "./turn-view";
import { usePlayground } from "./use-playground";

interface Props {
  agents: { id: string; name: string }[];
  agentId: string;
  sessionId: string | null;
  /** The offered tools and an example message, for the empty state. */
  example: string;
}

/** Chat with an agent: each turn streams, tool calls appear inline, each links to its trace. */
export function Playground({ agents, agentId, sessionId: initialSession, example }: Props) {
  const router = useRouter();
  const { sessionId, turns, busy, error, send, reset, decided } = usePlayground(agentId, initialSession);
  const [message, setMessage] = useState("");
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [turns]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!message.trim() || busy) return;
    void send(message.trim());
    setMessage("");
  };

  return (
    <div className="flex min-h-[60vh] flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label htmlFor="playground-agent" className="font-medium">
          Agent
        </label>
        <select
          id="playground-agent"
          className={controlClass}
          value={agentId}
          disabled={busy}
          onChange={(e) => router.push(`/playground?agent=${encodeURIComponent(e.target.value)}`)}
        >
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
        {sessionId ? (
          <>
            <span className="text-zinc-500">
              session{" "}
              <Link className="font-mono underline" href={`/sessions/${sessionId}`}>
                {sessionId}
              </Link>
            </span>
            <Button variant="secondary" onClick={reset} disabled={busy}>
              New session
            </Button>
          </>
        ) : null}
      </div>
      <ol
        aria-label="Conversation"
        aria-live="polite"
        className="flex flex-1 flex-col gap-4 rounded border border-zinc-200 p-4 dark:border-zinc-800"
      >
        {turns.length === 0 ? (
          <li className="m-auto max-w-md text-center text-sm text-zinc-500">
            {initialSession ? "This session's earlier turns are in its trace (link above). " : ""}Send a message to
            start a turn. {example}
          </li>
        ) : null}
        {turns.map((t) => (
          <TurnView key={t.key} turn={t} sessionId={sessionId} onApprovalDecided={() => decided(t.key)} />
        ))}
        <div ref={end} />
      </ol>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <form onSubmit={submit} className="sticky bottom-0 flex gap-2 bg-white py-2 dark:bg-zinc-950">
        <label htmlFor="playground-message" className="sr-only">
          Message
        </label>
        <input
          id="playground-message"
          autoComplete="off"
          className={inputClass}
          placeholder="Message the agent (Enter to send)"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
        <Button type="submit" disabled={busy || !message.trim()}>
          {busy ? "Running…" : "Send"}
        </Button>
      </form>
    </div>
  );
}
