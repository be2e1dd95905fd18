/**
 * The Prometheus exposition of this process (GET /metrics): the gauges read from the
 * database are brought up to date first (approvals pending), then every metric is rendered
 * in the text format. The metrics count every tenant's turns and calls, so a key pinned to a
 * tenant may not read them (it would see the others' volume, tools and agents).
 */
import type { Db } from "@/db/client";
import { countPendingApprovals } from "@/db/queries/pending-approvals";
import { assertUnpinned, type Principal } from "@/lib/access/principal";
import { insikaMetrics } from "@/lib/observability/insika-metrics";

export async function metricsExposition(db: Db, principal: Principal): Promise<{ contentType: string; text: string }> {
  assertUnpinned(principal, "reading the metrics");
  const metrics = insikaMetrics();
  metrics.approvalsPending.set(await countPendingApprovals(db));
  return { contentType: metrics.registry.contentType, text: await metrics.registry.metrics() };
}
