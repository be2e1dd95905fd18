/** Why an import was refused, in plain words: nothing was written in any of these cases. */
export interface ImportFailureInfo {
  code: string;
  error: string;
  details?: unknown;
}

const BLOCKED = "destination blocked: ";

export function ImportFailure({ failure }: { failure: ImportFailureInfo }) {
  const details = (failure.details ?? {}) as { rule?: string; hint?: string };
  const title =
    failure.code === "egress_blocked"
      ? "The egress guard refused this server: nothing was sent, nothing was written"
      : failure.code === "upstream_failed"
        ? "The MCP server could not be reached or read: nothing was written"
        : failure.code === "validation_failed"
          ? "The import was refused: nothing was written"
          : "The import failed: nothing was written";
  const reason = failure.error.startsWith(BLOCKED) ? failure.error.slice(BLOCKED.length) : failure.error;
  return (
    <div
      role="alert"
      data-testid="mcp-failure"
      data-code={failure.code}
      className="flex flex-col gap-1 rounded border-l-4 border-red-400 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <p className="font-semibold">{title}</p>
      <p className="break-words">{reason}</p>
      {details.rule ? (
        <p>
          <span className="font-medium">Rule: </span>
          <span className="font-mono">{details.rule}</span>
        </p>
      ) : null}
      {details.hint ? (
        <p className="break-words">
          <span className="font-medium">To allow it: </span>
          {details.hint}
        </p>
      ) : null}
      {failure.code === "upstream_failed" ? (
        <p className="text-xs">
          Check that the server is running and that the URL is its Streamable HTTP endpoint (often ending in /mcp).
        </p>
      ) : null}
    </div>
  );
}
