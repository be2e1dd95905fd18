import { studioDb } from "@/lib/api/studio-db";
import { listAgentsPresented } from "@/lib/services/agents/agents";
import { listCatalog } from "@/lib/services/tools/tools";
import { requirePage } from "./page-access";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  // The layout checks too, but a page can be rendered without its layout (an RSC navigation).
  await requirePage("/");
  const db = studioDb();
  const tools = await listCatalog(db);
  const agents = await listAgentsPresented(db);
  const dropped = tools.filter((t) => t.status === "dropped");
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Overview</h1>
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Stat label="Tools in the catalog" value={tools.length} />
        <Stat label="Dropped tools" value={dropped.length} />
        <Stat label="Agents" value={agents.length} />
      </dl>
      {agents.length === 0 ? (
        <p className="text-zinc-500">No agents yet: create one with PUT /v1/agents/:id or in insika.config.ts.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {agents.map((a) => (
            <li key={a.id}>
              <span className="font-medium">{a.name}</span>{" "}
              <span className="text-zinc-500">
                ({a.model.provider}: {a.model.model})
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded border border-zinc-200 p-4 dark:border-zinc-800">
      <dt className="text-sm text-zinc-500">{label}</dt>
      <dd className="text-2xl font-semibold">{value}</dd>
    </div>
  );
}
