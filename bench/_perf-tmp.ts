import { openDb } from "@/db/client";
import { seedCalls } from "@/test/support/seed-calls";
import { getOverview, getToolCallHistory } from "@/lib/services/observability/overview";
import { listCalls } from "@/db/queries/overview";
import fs from "node:fs";
const file = "/tmp/perf-overview.db";
const fresh = !fs.existsSync(file);
const db = openDb(file);
const now = Date.UTC(2026, 11, 1, 12);
let t = Date.now();
if (fresh) { seedCalls(db, { calls: 1_000_000, now, spanMs: 7 * 86_400_000 }); console.log("seed ms", Date.now() - t); }
for (const w of ["1h", "24h", "7d"]) {
  for (let k = 0; k < 2; k++) { t = performance.now(); const o = await getOverview(db, w, now + 60_000); console.log(w, "overview ms", Math.round(performance.now() - t), o.totals.calls); }
}
t = performance.now(); await getToolCallHistory(db, "fetch_page", "7d", now); console.log("tool 7d ms", Math.round(performance.now() - t));
t = performance.now(); await listCalls(db, { outcome: "blocked", limit: 50 }); console.log("blocked list ms", Math.round(performance.now() - t));
t = performance.now(); await listCalls(db, { tool: "fetch_page", outcome: "error", limit: 50 }); console.log("tool errors list ms", Math.round(performance.now() - t));
for (const q of ["select cast((started_at - 1.0) / 60000.0 as integer), tool, ok, duration_ms, count(*) from tool_calls where started_at >= 5 group by 1,2,3,4"]) console.log(db.$client.prepare("explain query plan " + q).all());
