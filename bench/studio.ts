/**
 * studio: Playwright timings in Debian's Chromium against the real built server
 * (test/support/server.ts). The trace viewer (/sessions/[id]) of sessions of 10,
 * 100 and 1,000 calls (10 calls per turn, rows written with the db queries), and
 * the tools panel (/tools) with 50, 500 and 5,000 tools (a manifest), and the Overview (/)
 * over 1,000,000 stored calls spread over the last 7 days (its 24 h and 7 d windows; rows
 * written with the db queries, test/support/seed-calls.ts). Time = from navigation start to
 * the first frame after every call / the catalog count / the Overview's charts and call
 * count are in the page, read from the page's own clock. 1 warm-up load, then 5; medians.
 * `BENCH_OVERVIEW_ONLY=1` runs only the Overview part.
 */
import { chromium, type Page } from "@playwright/test";
import { dbFile, openDb, type Db } from "@/db/client";
import type { SqliteDatabase } from "@/db/sqlite-database";
import { updateTurnStatus, insertTurn } from "@/db/queries/turns";
import { insertEvent, insertToolCall } from "@/db/queries/traces";
import { insertSession } from "@/db/queries/sessions";
import { LoginPage } from "../e2e/pages/login-page";
import { startServer } from "../test/support/server";
import { manifest } from "./catalog";
import { ensureBuild, sampleCallRecord } from "./fixtures";
import { seedCalls } from "../test/support/seed-calls";
import { describe, row, say, stats, type Row } from "./harness";

const CALLS = [10, 100, 1_000];
const TOOLS = [50, 500, 5_000];
const LOADS = 5;
const CALLS_PER_TURN = 10;
const OVERVIEW_CALLS = 1_000_000;

/** A session of `calls` calls, written the way the recorder writes a turn. */
async function writeSession(db: Db, id: string, calls: number): Promise<void> {
  const start = Date.now() - calls * 10;
  await insertSession(db, { id, agentId: "bench", tenant: null, now: start });
  for (let t = 0; t * CALLS_PER_TURN < calls; t += 1) {
    const turnId = `${id}_t${t}`;
    const at = start + t * CALLS_PER_TURN * 10;
    await insertTurn(db, { id: turnId, sessionId: id, userMessage: `look up ${CALLS_PER_TURN} items (${t})`, now: at });
    let seq = 0;
    await insertEvent(db, { turnId, seq: (seq += 1), type: "turn_started", data: { turn_id: turnId }, at });
    for (let c = 0; c < CALLS_PER_TURN; c += 1) {
      const callId = `call_${t}_${c}`;
      const record = sampleCallRecord(callId);
      await insertEvent(db, {
        turnId,
        seq: (seq += 1),
        type: "tool_call",
        data: { call_id: callId, tool: record.tool, arguments: record.arguments },
        at: at + c,
      });
      await insertToolCall(db, {
        turnId,
        callId,
        tool: record.tool,
        ok: true,
        startedAt: at + c,
        durationMs: 3,
        queuedMs: c % 3,
        record: { ...record, duration_ms: 3, queued_ms: c % 3, halted: false },
      });
      await insertEvent(db, {
        turnId,
        seq: (seq += 1),
        type: "tool_result",
        data: { call_id: callId, tool: record.tool, ok: true, result: record.result, duration_ms: 3, queued_ms: c % 3 },
        at: at + c + 3,
      });
    }
    await insertEvent(db, {
      turnId,
      seq: seq + 1,
      type: "turn_completed",
      data: { content: "Found them all." },
      at: at + 20,
    });
    await updateTurnStatus(db, { id: turnId, status: "completed", content: "Found them all.", now: at + 20 });
  }
}

interface Load {
  /** Navigation start to the first frame where `ready` holds. */
  rendered: number;
  /** Navigation start to the first byte and to the last byte of the HTML; its decoded size. */
  firstByte: number;
  lastByte: number;
  kib: number;
}

/** Loads `url` LOADS times after a warm-up, timed by the page's own clock. */
async function loads(page: Page, url: string, ready: string): Promise<Load[]> {
  const out: Load[] = [];
  for (let i = 0; i <= LOADS; i += 1) {
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(ready, undefined, { timeout: 60_000, polling: "raf" });
    const load = await page.evaluate(
      () =>
        new Promise<Load>((resolve) =>
          requestAnimationFrame(() => {
            const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
            resolve({
              rendered: performance.now(),
              firstByte: nav?.responseStart ?? NaN,
              lastByte: nav?.responseEnd ?? NaN,
              kib: (nav?.decodedBodySize ?? NaN) / 1024,
            });
          }),
        ),
    );
    if (i > 0) out.push(load);
  }
  return out;
}

/** Times the page and prints where the time went; returns the median time to rendered. */
async function measure(page: Page, label: string, url: string, ready: string): Promise<number> {
  const all = await loads(page, url, ready);
  const s = stats(all.map((l) => l.rendered));
  const med = (f: (l: Load) => number) => stats(all.map(f)).median.toFixed(0);
  say(`  ${label}: ${describe(s, "ms", 0)}`);
  // responseEnd is 0 while the HTML still streams (Next streams the RSC payload after the markup).
  const ended = all.every((l) => l.lastByte > 0);
  const kib = ended ? med((l) => l.kib) : ((await (await page.request.get(url)).body()).length / 1024).toFixed(0);
  say(
    `    medians: first byte ${med((l) => l.firstByte)} ms, ${ended ? `last byte ${med((l) => l.lastByte)} ms` : "HTML still streaming when rendered"}, HTML ${kib} KiB`,
  );
  return s.median;
}

export default async function studio(): Promise<Row[]> {
  await ensureBuild("studio");
  const server = await startServer({ env: { INSIKA_EGRESS_ALLOW_HTTP: "1" } });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost, EXCLUDE 127.0.0.1",
    ],
  });
  const rows: Row[] = [];
  try {
    await server.api("PUT", "/v1/agents/bench", { model: { provider: "demo", model: "demo" } });
    const db = openDb(dbFile(server.dataDir));
    const page = await browser.newPage();
    await page.goto(`${server.url}/login`);
    await new LoginPage(page).signIn(server.token);
    await page.waitForURL(`${server.url}/`);
    say(
      `studio: ${server.url} (next start, built app), Chromium ${browser.version()}; ${LOADS} loads after 1 warm-up, page clock from navigation start`,
    );

    const overviewOnly = process.env.BENCH_OVERVIEW_ONLY === "1";
    for (const calls of overviewOnly ? [] : CALLS) {
      const id = `ses_bench_${calls}`;
      await writeSession(db, id, calls);
      const ready = `document.querySelectorAll('[data-testid="trace-call"]').length === ${calls} && document.querySelectorAll('[data-testid="waterfall-row"]').length > 0`;
      const ms = await measure(page, `trace viewer, ${calls} calls`, `${server.url}/sessions/${id}`, ready);
      rows.push(
        row({
          name: "studio",
          size: `${calls} calls`,
          metric: "trace viewer first render",
          unit: "ms",
          value: ms,
          ...(calls === 1_000 ? { goal: { on: "value", op: "<=", limit: 1000 } } : {}),
        }),
      );
    }
    for (const tools of overviewOnly ? [] : TOOLS) {
      const res = await server.api("POST", "/v1/tools/manifest", manifest(tools));
      if (res.status !== 200) throw new Error(`manifest of ${tools} tools: HTTP ${res.status}`);
      const total = ((await server.api("GET", "/v1/tools")).body as { tools: unknown[] }).tools.length;
      const ready = `(document.querySelector('[data-testid="catalog-count"]')?.textContent ?? "").trim() === "${total} of ${total}" && document.querySelector('[data-tool]') !== null`;
      const ms = await measure(
        page,
        `tools panel, ${tools} data tools (${total} in the catalog)`,
        `${server.url}/tools`,
        ready,
      );
      rows.push(
        row({
          name: "studio",
          size: `${tools} tools`,
          metric: "tools panel first render",
          unit: "ms",
          value: ms,
          ...(tools === 5_000 ? { goal: { on: "value", op: "<=", limit: 1000 } } : {}),
        }),
      );
    }
    rows.push(...(await overview(page, server.url, db)));
    db.client.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  return rows;
}

/** The Overview over 1,000,000 stored calls (the last 7 days), in its 24 h and 7 d windows. */
async function overview(page: Page, url: string, db: SqliteDatabase): Promise<Row[]> {
  const started = performance.now();
  await seedCalls(db, { calls: OVERVIEW_CALLS, now: Date.now() - 60_000, spanMs: 7 * 86_400_000 - 3_600_000 });
  db.client.pragma("wal_checkpoint(TRUNCATE)");
  say(
    `  (seeded ${OVERVIEW_CALLS.toLocaleString("en")} calls in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  const rows: Row[] = [];
  for (const window of ["24h", "7d"] as const) {
    const ready = `document.querySelectorAll('[data-testid="calls-chart"] [data-bar]').length > 0 && document.querySelectorAll('[data-testid="latency-chart"] [data-bar]').length > 0 && Number(document.querySelector('[data-stat-value]')?.getAttribute('data-stat-value')) > 0`;
    const ms = await measure(
      page,
      `Overview, ${window} window, 1,000,000 stored calls`,
      `${url}/?window=${window}`,
      ready,
    );
    rows.push(
      row({
        name: "studio",
        size: `1,000,000 calls, ${window}`,
        metric: "Overview first render",
        unit: "ms",
        value: ms,
        goal: { on: "value", op: "<=", limit: 1000 },
      }),
    );
  }
  return rows;
}
