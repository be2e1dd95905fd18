/**
 * The Prometheus exposition of this process (GET /metrics): the gauges read from the
 * database are brought up to date first (approvals pending), then every metric is rendered
 * in the text format. The metrics count every tenant's turns and calls, so a key pinned to a
 * tenant may not read them (it would see the others' volume, tools and agents).
 */
import type { Db } from "@/db/client";
import { countPendingApprovals } from "@/db/queries/pending-approvals";
import type { Principal } from "@/lib/access/principal";
import { DomainError } from "@/lib/errors";
import { insikaMetrics } from "@/lib/observability/insika-metrics";

export async function metricsExposition(db: Db, principal: Principal): Promise<{ contentType: string; text: string }> {
  if (principal.tenant !== null)
    throw new DomainError(
      "forbidden",
      `this key is pinned to tenant '${principal.tenant}'; the metrics are process-wide (every tenant), so they need a key without a tenant`,
    );
  const metrics = insikaMetrics();
  metrics.approvalsPending.set(await countPendingApprovals(db));
  return { contentType: metrics.registry.contentType, text: await metrics.registry.metrics() };
}
