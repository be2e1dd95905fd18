"use client";
import { useState, useTransition } from "react";
import { testToolAction } from "@/app/(studio)/tools/actions";
import { CallDetail } from "@/components/trace/call-detail";
import type { CallRecord } from "@/components/trace/call-record";
import { Button } from "@/components/ui/button";
import { Field, inputClass, monoInputClass } from "@/components/ui/field";
import { CTX_KEYS, type TurnContext } from "@/lib/tools/types";

/** Example arguments from a JSON Schema: every property with a placeholder value of its type. */
export function exampleArguments(schema: unknown): string {
  const props =
    (schema as { properties?: Record<string, { type?: string; items?: { type?: string } }> })?.properties ?? {};
  const sample = (t?: string): unknown =>
    t === "integer" || t === "number" ? 1 : t === "boolean" ? true : t === "object" ? {} : "example";
  const args = Object.fromEntries(
    Object.entries(props).map(([k, p]) => [k, p?.type === "array" ? [sample(p.items?.type)] : sample(p?.type)]),
  );
  return JSON.stringify(args, null, 2);
}

/** "Try it": run the tool once with these arguments (no model) and show the call record. */
export function TryIt({
  tool,
  parameters,
  defaultCtx,
}: {
  tool: string;
  parameters: unknown;
  defaultCtx: TurnContext;
}) {
  const [args, setArgs] = useState(() => exampleArguments(parameters));
  const [ctx, setCtx] = useState<TurnContext>(defaultCtx);
  const [error, setError] = useState<string | null>(null);
  const [record, setRecord] = useState<CallRecord | null>(null);
  const [pending, start] = useTransition();

  const run = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch (e) {
      return setError(`Arguments must be JSON: ${(e as Error).message}`);
    }
    setError(null);
    start(async () => {
      const result = await testToolAction(tool, parsed, Object.fromEntries(Object.entries(ctx).filter(([, v]) => v)));
      if (result.ok) setRecord(result.value as unknown as CallRecord);
      else setError(result.error);
    });
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
        <Field id="try-arguments" label="Arguments (JSON, as the model would send them)" errors={error ? [error] : []}>
          <textarea
            id="try-arguments"
            rows={8}
            spellCheck={false}
            className={monoInputClass}
            value={args}
            onChange={(e) => setArgs(e.target.value)}
            onKeyDown={(e) => (e.key === "Enter" && (e.metaKey || e.ctrlKey) ? run() : undefined)}
          />
        </Field>
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">Turn context ({"{{ctx.*}}"})</legend>
          {CTX_KEYS.map((k) => (
            <label key={k} className="grid grid-cols-[6rem_1fr] items-center gap-2 text-xs">
              <span className="font-mono">{k}</span>
              <input
                className={inputClass}
                value={ctx[k] ?? ""}
                onChange={(e) => setCtx((c) => ({ ...c, [k]: e.target.value }))}
              />
            </label>
          ))}
        </fieldset>
      </div>
      <div className="flex items-center gap-3">
        <Button onClick={run} disabled={pending}>
          {pending ? "Running…" : "Run the tool"}
        </Button>
        <span className="text-xs text-zinc-500">
          Ctrl+Enter in the arguments runs it. This sends a real request (egress rules apply).
        </span>
      </div>
      {record ? (
        <CallDetail record={record} />
      ) : (
        <p className="text-sm text-zinc-500">
          No call yet: edit the arguments and run the tool to see its call record here.
        </p>
      )}
    </div>
  );
}
