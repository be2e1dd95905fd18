"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { mcpClientConfig } from "@/lib/services/mcp-server/mcp-client-config";

/** The agent's MCP endpoint: its URL and a copyable client config snippet. */
export function AgentMcpEndpoint({ agentId, url }: { agentId: string; url: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const config = mcpClientConfig(agentId, url);
  const copy = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(`${what} copied.`);
    } catch {
      setCopied("The browser refused the clipboard: select the text and copy it.");
    }
  };
  return (
    <section
      aria-label="MCP endpoint"
      data-testid="agent-mcp-endpoint"
      className="flex flex-col gap-2 rounded border border-zinc-200 p-3 text-sm dark:border-zinc-800"
    >
      <p>
        <span className="font-medium">MCP endpoint</span>{" "}
        <span className="text-zinc-600 dark:text-zinc-400">
          — this agent&apos;s tools for any MCP client (Streamable HTTP), with its policy, argument checks, egress
          guard, approvals and traces. It needs a key with <code>turns:run</code> for this agent.
        </span>
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid="agent-mcp-url"
          className="select-all break-all rounded bg-zinc-100 px-2 py-1 font-mono text-xs dark:bg-zinc-900"
        >
          {url}
        </code>
        <Button variant="secondary" onClick={() => void copy(url, "URL")}>
          Copy URL
        </Button>
        <Button variant="secondary" onClick={() => void copy(config, "Client config")}>
          Copy client config
        </Button>
        <span role="status" className="text-xs">
          {copied}
        </span>
      </div>
      <details className="text-xs">
        <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">Client config</summary>
        <pre
          data-testid="agent-mcp-config"
          className="mt-1 overflow-x-auto rounded bg-zinc-100 p-2 font-mono dark:bg-zinc-900"
        >
          {config}
        </pre>
      </details>
    </section>
  );
}
