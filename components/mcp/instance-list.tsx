"use client";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { McpInstanceRow } from "@/lib/services/mcp/mcp-page";

const SECRET_REF = /^[^{]*\{\{secret\.[A-Za-z_][A-Za-z0-9_]*\}\}/;

const AUTH_LABEL: Record<McpInstanceRow["auth"]["kind"], string> = {
  oauth_client_credentials: "OAuth client credentials",
  headers: "headers",
  none: "none",
};

function authTitle(auth: McpInstanceRow["auth"]): string {
  if (auth.kind === "oauth_client_credentials")
    return `client_id ${auth.client_id}, secret ${auth.client_secret}${auth.scope ? `, scope ${auth.scope}` : ""}; tokens are kept in memory only`;
  return auth.kind === "headers" ? "static headers sent with every call" : "no credentials";
}

/** The imported MCP instances, each with its tools and a re-import with the same URL and headers. */
export function InstanceList({
  instances,
  onReimport,
  busy,
}: {
  instances: McpInstanceRow[];
  onReimport: (i: McpInstanceRow) => void;
  busy: boolean;
}) {
  return (
    <ul className="flex flex-col gap-3">
      {instances.map((i) => (
        <li
          key={i.group}
          data-instance={i.name}
          className="flex flex-col gap-2 rounded border border-zinc-200 p-3 dark:border-zinc-800"
        >
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{i.name}</span>
            <Badge tone="teal">{i.group}</Badge>
            <Badge tone="green">{i.tools} tool(s)</Badge>
            <span data-testid="mcp-auth-kind">
              <Badge tone="violet" title={authTitle(i.auth)}>
                auth: {AUTH_LABEL[i.auth.kind]}
              </Badge>
            </span>
            {i.dropped > 0 ? (
              <Badge tone="red" title="stored but no longer valid">
                {i.dropped} dropped
              </Badge>
            ) : null}
            <Button
              variant="secondary"
              className="ml-auto"
              disabled={busy}
              onClick={() => onReimport(i)}
              aria-label={`Re-import ${i.name}`}
            >
              Re-import
            </Button>
          </div>
          <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-400">{i.url}</p>
          {Object.keys(i.headers).length > 0 ? (
            <p className="break-words text-xs text-zinc-500">
              Headers:{" "}
              {Object.entries(i.headers).map(([k, v], n) => (
                <span key={k} className="font-mono">
                  {n > 0 ? ", " : ""}
                  {k}
                  {SECRET_REF.test(v) ? ` (${v.match(/\{\{secret\.[^}]+\}\}/)?.[0]})` : ""}
                </span>
              ))}
            </p>
          ) : null}
          <details className="text-xs">
            <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">
              Tools · last written {i.updated_at.replace("T", " ").slice(0, 19)}
            </summary>
            <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 font-mono">
              {i.toolNames.map((n) => (
                <li key={n}>
                  <Link className="underline" href={`/tools/${encodeURIComponent(n)}`}>
                    {n}
                  </Link>
                </li>
              ))}
            </ul>
          </details>
        </li>
      ))}
    </ul>
  );
}
