/**
 * catalog: no baseline, absolute goals. For N tools: ingest a manifest of N tools
 * (applyManifest into a fresh database, the POST /v1/tools/manifest path), rebuild
 * the registry after a write elsewhere moved the catalog version (getCatalog; the
 * tool_search index, built on the next search, is its own line), and tool_search over N deferred
 * tools (the system tool as a turn runs it, index cached). Peak RSS per size is
 * measured in a fresh process.
 */
import type { Db } from "@/db/client";
import { bumpCatalogVersion } from "@/db/queries/settings";
import type { AgentRow } from "@/db/schema";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { applyManifest } from "@/lib/services/tools/apply-manifest";
import { getCatalog } from "@/lib/services/tools/catalog";
import { createSystemTools } from "@/lib/services/turns/system-tools";
import { SubagentBudget } from "@/lib/code-tools/system/subagent-budget";
import { searchIndexFor } from "@/lib/services/tools/offered-tool-specs";
import { freshDb } from "./fixtures";
import { describe, peakRssMb, row, rssMb, say, stats, type Row } from "./harness";
import { inChild } from "./run";
import { operatorPrincipal } from "@/lib/access/principal";

const OPERATOR = operatorPrincipal("api");

const SIZES = [100, 1_000, 10_000];
const NOUNS = [
  "order",
  "invoice",
  "customer",
  "shipment",
  "ticket",
  "refund",
  "product",
  "coupon",
  "warehouse",
  "review",
];
const VERBS = ["get", "list", "create", "update", "cancel", "search", "export", "archive"];

/** A manifest of n varied tools (names, descriptions, groups, tags, a path placeholder). */
export function manifest(n: number) {
  const tools = Array.from({ length: n }, (_, i) => {
    const noun = NOUNS[i % NOUNS.length] ?? "item";
    const verb = VERBS[Math.floor(i / NOUNS.length) % VERBS.length] ?? "get";
    return {
      name: `${verb}_${noun}_${i}`,
      description: `${verb} a ${noun} in region ${i % 37} of the ${noun} service (variant ${i})`,
      parameters: `id | string | required | The ${noun} id\nverbose | boolean | optional | Include details`,
      request: { method: "GET", url: `https://api${i % 7}.example.com/${noun}s/{{id}}` },
      group: `${noun}_service`,
      tags: [noun, verb],
    };
  });
  return { version: 1, tools };
}

const ingest = (db: Db, n: number) => applyManifest(db, OPERATOR, manifest(n), { env: {}, secrets: staticSecrets({}) });

function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const value = f();
  return [value, performance.now() - t];
}

async function timeAsync<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const value = await f();
  return [value, performance.now() - t];
}

/** Rebuild after the version moved: the catalog, then the search index the first tool_search builds. */
async function rebuild(db: Db): Promise<{ catalog: number; index: number }> {
  await bumpCatalogVersion(db);
  const [catalog, catalogMs] = await timeAsync(() => getCatalog(db));
  const [, indexMs] = time(() => searchIndexFor(catalog));
  return { catalog: catalogMs, index: indexMs };
}

/** tool_search as a turn runs it (validation, ranking, promotion), every tool deferred. */
async function searchTimes(db: Db, n: number, queries: number): Promise<number[]> {
  const catalog = await getCatalog(db);
  const names = [...catalog.entries.values()].filter((e) => e.status === "ok" && e.kind !== "code").map((e) => e.name);
  const agent = { id: "bench", skills: [], memory: false, subagents: [], toolsDeny: [] } as unknown as AgentRow;
  const system = createSystemTools(db, {
    agent,
    ctx: {},
    depth: 0,
    catalog,
    deferred: names,
    runChild: () => Promise.reject(new Error("no")),
    subagentBudget: new SubagentBudget(0),
  });
  const signal = new AbortController().signal;
  const times: number[] = [];
  for (let q = 0; q < queries; q += 1) {
    const noun = NOUNS[q % NOUNS.length] ?? "";
    const query =
      [`${VERBS[q % VERBS.length]} ${noun}`, `${noun} region ${q % 37}`, `variant ${(q * 7919) % n}`, `refnd ${noun}`][
        q % 4
      ] ?? noun;
    const t = performance.now();
    const out = await system.run({ callId: `c${q}`, tool: "tool_search", arguments: { query }, ctx: {}, signal });
    times.push(performance.now() - t);
    if (!out.ok) throw new Error(`tool_search failed: ${out.error}`);
  }
  return times;
}

/** Sub-measurement in a fresh process: peak RSS through ingest, rebuild and searches of n tools. */
export async function child([, n]: string[]): Promise<{ start: number; peak: number }> {
  const db = freshDb();
  const start = rssMb();
  await ingest(db, Number(n));
  await rebuild(db);
  await searchTimes(db, Number(n), 100);
  return { start, peak: peakRssMb() };
}

export default async function catalogBench(): Promise<Row[]> {
  say(
    "catalog: manifest ingest into a fresh database (3 runs, 1 at 10,000), rebuild after a version bump (5 runs), tool_search over every tool deferred (300 queries, index warm)",
  );
  const rows: Row[] = [];
  for (const n of SIZES) {
    const size = `${n} tools`;
    const ingests: number[] = [];
    let db = freshDb();
    for (let r = 0; r < (n >= 10_000 ? 1 : 3); r += 1) {
      db = freshDb();
      const [result, ms] = await timeAsync(() => ingest(db, n));
      if (result.created.length !== n)
        throw new Error(`ingest created ${result.created.length} of ${n}: ${JSON.stringify(result.errors[0])}`);
      ingests.push(ms);
    }
    await rebuild(db); // warm-up
    const rebuilds: { catalog: number; index: number }[] = [];
    for (let r = 0; r < 5; r += 1) rebuilds.push(await rebuild(db));
    const cat = stats(rebuilds.map((r) => r.catalog));
    const idx = stats(rebuilds.map((r) => r.index));
    await searchTimes(db, n, 50); // warm-up
    const search = stats(await searchTimes(db, n, 300));
    const ing = stats(ingests);
    say(`  ${size}: ingest ${describe(ing, "ms", 1)}`);
    say(`  ${size}: registry rebuild ${describe(cat, "ms", 1)}`);
    say(`  ${size}: tool_search index build (first search after a rebuild) ${describe(idx, "ms", 1)}`);
    say(`  ${size}: tool_search ${describe(search)}`);
    const big = n === 10_000;
    rows.push(
      row({
        name: "catalog",
        size,
        metric: "manifest ingest",
        unit: "ms",
        value: ing.median,
        ...(n === 1_000 ? { goal: { on: "value", op: "<=", limit: 500 } } : {}),
      }),
      row({
        name: "catalog",
        size,
        metric: "registry rebuild",
        unit: "ms",
        value: cat.median,
        ...(big ? { goal: { on: "value", op: "<=", limit: 50 } } : {}),
      }),
      row({ name: "catalog", size, metric: "tool_search index build", unit: "ms", value: idx.median }),
      row({
        name: "catalog",
        size,
        metric: "tool_search p50",
        unit: "ms",
        value: search.median,
        ...(big ? { goal: { on: "value", op: "<=", limit: 2 } } : {}),
      }),
    );
  }
  for (const n of SIZES) {
    const m = await inChild<{ start: number; peak: number }>("catalog", ["rss", String(n)]);
    say(`  ${n} tools: peak RSS ${m.peak.toFixed(0)} MiB (fresh process, ${m.start.toFixed(0)} MiB after setup)`);
    rows.push(row({ name: "catalog", size: `${n} tools`, metric: "peak RSS", unit: "MiB", value: m.peak }));
  }
  return rows;
}
