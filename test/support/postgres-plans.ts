/**
 * Test-only: what PostgreSQL plans for the statements a function sends. `sentBy` records
 * every query a pg client sends while a function runs; `plansOf` asks the server for the plan
 * of one of them with its values, and for the generic plan of the same statement prepared
 * (what a pool connection settles on after a few runs).
 */
import type pg from "pg";
import pgModule from "pg";
import { vi } from "vitest";
import { openPostgres } from "@/db/client";
import type { Db } from "@/db/database";
import { createTestDatabase } from "./test-database";

export interface SentQuery {
  text: string;
  values: unknown[];
}

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** A new database of the test cluster, seeded by `seed` and analyzed, with a second client to ask plans on. */
export async function plannedDatabase(seed: (db: Db) => Promise<void>) {
  const url = await createTestDatabase();
  const db = openPostgres(url, { poolSize: 2 });
  await seed(db);
  const admin = new pgModule.Client({ connectionString: url });
  await admin.connect();
  await admin.query("analyze");
  return {
    db,
    admin,
    async close() {
      await admin.end();
      await db.close();
    },
  };
}

/** Every node of a plan (EXPLAIN's JSON form), depth first. */
export function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/** The tables a plan reads by scanning them whole. */
export function scannedTables(plan: PlanNode): string[] {
  return nodesOf(plan)
    .filter((node) => node["Node Type"] === "Seq Scan")
    .map((node) => node["Relation Name"] ?? "?");
}

/** Whether a plan sorts rows itself (a Sort node, of any kind) rather than reading them in order. */
export function sorts(plan: PlanNode): boolean {
  return nodesOf(plan).some((node) => node["Node Type"] === "Sort" || node["Node Type"] === "Incremental Sort");
}

/** The statements `run` sends to the server (text and values), in order, those matching `about`. */
export async function sentBy(run: () => Promise<unknown>, about: RegExp): Promise<SentQuery[]> {
  const sent: SentQuery[] = [];
  const query = pgModule.Client.prototype.query;
  const spy = vi.spyOn(pgModule.Client.prototype, "query").mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    if (typeof config === "string") sent.push({ text: config, values: values ?? [] });
    else sent.push({ text: config.text, values: config.values ?? values ?? [] });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query);
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return sent.filter((q) => about.test(q.text));
}

/** The plan of `q` with its values, and the generic plan of the same statement prepared, asked on `admin`. */
export async function plansOf(admin: pg.Client, q: SentQuery): Promise<{ custom: PlanNode; generic: PlanNode }> {
  const custom = await admin.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (format json) ${q.text}`, q.values);
  await admin.query("deallocate all");
  await admin.query(`prepare probe as ${q.text}`);
  await admin.query("set plan_cache_mode = force_generic_plan");
  const literals = q.values.map((v) => admin.escapeLiteral(String(v))).join(", ");
  const generic = await admin.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `explain (format json) execute probe(${literals})`,
  );
  await admin.query("reset plan_cache_mode");
  return { custom: custom.rows[0]!["QUERY PLAN"][0].Plan, generic: generic.rows[0]!["QUERY PLAN"][0].Plan };
}
