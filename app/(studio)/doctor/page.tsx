import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { getEnv } from "@/lib/env";
import { runDoctor } from "@/lib/services/server/doctor";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";

export const dynamic = "force-dynamic";

const TONE = { ok: "green", warn: "amber", error: "red" } as const;

export default async function DoctorPage() {
  await requirePage("/doctor");
  const { checks } = await runDoctor(studioDb(), getEnv());
  const worst = checks.some((c) => c.status === "error")
    ? "error"
    : checks.some((c) => c.status === "warn")
      ? "warn"
      : "ok";
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Doctor"
        description={
          <>
            The same checks as <code>insika doctor</code> and <code>GET /v1/doctor</code>. A stored tool that no longer
            validates is reported only here (and dropped from the catalog).
          </>
        }
      />
      <p role="status" className="text-sm">
        Overall: <Badge tone={TONE[worst]}>{worst}</Badge>
      </p>
      <ul className="flex flex-col gap-2">
        {checks.map((c) => (
          <li
            key={c.name}
            data-check={c.name}
            data-status={c.status}
            className="rounded border border-zinc-200 p-3 dark:border-zinc-800"
          >
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone={TONE[c.status]}>{c.status}</Badge>
              <span className="font-mono text-sm font-medium">{c.name}</span>
              <span className="min-w-0 break-words text-sm text-zinc-700 dark:text-zinc-300">{c.message}</span>
            </div>
            {c.items?.length ? (
              <ul className="mt-2 list-disc pl-6 font-mono text-xs text-red-800 dark:text-red-300">
                {c.items.map((i) => (
                  <li key={i} className="break-words">
                    {i}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
