import { Badge } from "@/components/ui/badge";
import { callVerdict, pretty, VERDICT_LABEL, VERDICT_STYLE, type CallRecord } from "./call-record";

function Block({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="flex min-w-0 flex-col gap-1">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-zinc-500">{title}</h4>
      {children}
    </section>
  );
}

const pre =
  "max-h-72 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-900";

/** One tool call: verdict first (in words), then arguments, request, status, response, timings. */
export function CallDetail({ record }: { record: CallRecord }) {
  const verdict = callVerdict(record);
  const req = record.request;
  return (
    <div data-testid="call-detail" data-verdict={verdict.kind} className="flex flex-col gap-3">
      <div role="status" className={`rounded border-l-4 p-3 text-sm ${VERDICT_STYLE[verdict.kind]}`}>
        <p className="font-semibold">
          <span className="mr-2 font-mono text-xs">{VERDICT_LABEL[verdict.kind]}</span>
          {verdict.title}
        </p>
        {verdict.detail ? <p className="mt-1 break-words">{verdict.detail}</p> : null}
        {verdict.hint ? (
          <p className="mt-1 break-words">
            <span className="font-medium">To allow it: </span>
            {verdict.hint}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2 text-xs">
        <Badge>{record.tool}</Badge>
        {record.kind ? <Badge>{record.kind}</Badge> : null}
        <Badge
          tone={
            typeof record.status === "number" && record.status < 400
              ? "green"
              : typeof record.status === "number"
                ? "red"
                : "neutral"
          }
        >
          {typeof record.status === "number" ? `HTTP ${record.status}` : "no HTTP status: nothing was sent"}
        </Badge>
        <Badge>call {record.duration_ms ?? "?"} ms</Badge>
        <Badge>queued {record.queued_ms ?? 0} ms</Badge>
        <span className="font-mono text-zinc-500">{record.call_id}</span>
      </div>
      <div className="grid gap-3 lg:grid-cols-2">
        <Block title="Arguments">
          <pre className={pre}>{pretty(record.arguments)}</pre>
        </Block>
        <Block title="Request">
          {req ? (
            <pre className={pre}>
              {`${req.method ?? "?"} ${req.url ?? ""}\n`}
              {Object.entries(req.headers ?? {})
                .map(([k, v]) => `${k}: ${v}`)
                .join("\n")}
            </pre>
          ) : (
            <p className="text-xs text-zinc-500">No HTTP request was sent.</p>
          )}
        </Block>
        <Block title={record.ok ? "Response (what the model read)" : "Error"}>
          <pre className={pre}>{record.ok ? pretty(record.result) : (record.error ?? pretty(record.result))}</pre>
        </Block>
        {!record.ok && record.result !== undefined && record.result !== null ? (
          <Block title="What the model read">
            <pre className={pre}>{pretty(record.result)}</pre>
          </Block>
        ) : null}
      </div>
    </div>
  );
}
