/**
 * The Prometheus exposition of this process (GET /metrics): the gauges read from the
 * database are brought up to date first (approvals pending), then every metric is rendered
 * in the text format.
 */
import type { Db } from "@/db/client";
import { countPendingApprovals } from "@/db/queries/pending-approvals";
import { insikaMetrics } from "@/lib/observability/insika-metrics";

export async function metricsExposition(db: Db): Promise<{ contentType: string; text: string }> {
  const metrics = insikaMetrics();
  metrics.approvalsPending.set(await countPendingApprovals(db));
  return { contentType: metrics.registry.contentType, text: await metrics.registry.metrics() };
}
