/**
 * What SQLite plans for the statements a query helper runs: for the tests that hold a list to
 * an index (no scan of the table, no temporary B-tree to sort it).
 */
import type { SqliteDatabase } from "@/db/sqlite-database";

export interface RanStatement {
  source: string;
  values: unknown[];
}

/**
 * The statements `run` prepares on `db`'s connection and runs, each with the values it last ran
 * with (a statement prepared and never run, such as the check of whether one only reads, is
 * left out).
 */
export async function statementsOf(db: SqliteDatabase, run: () => Promise<unknown>): Promise<RanStatement[]> {
  const prepared: { entry: RanStatement; ran: boolean }[] = [];
  const client = db.client;
  const prepare = client.prepare.bind(client);
  client.prepare = ((source: string) => {
    const statement = prepare(source);
    const entry: RanStatement = { source, values: [] };
    const seen = { entry, ran: false };
    prepared.push(seen);
    for (const method of ["all", "get", "run", "iterate"] as const) {
      const original = statement[method].bind(statement) as (...values: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...values: unknown[]) => {
        entry.values = values;
        seen.ran = true;
        return original(...values);
      };
    }
    return statement;
  }) as typeof client.prepare;
  try {
    await run();
  } finally {
    client.prepare = prepare;
  }
  return prepared.filter((p) => p.ran).map((p) => p.entry);
}

/** The steps of SQLite's plan for `statement` with its values (`explain query plan`). */
export function planOf(db: SqliteDatabase, statement: RanStatement): string[] {
  const rows = db.client.prepare(`explain query plan ${statement.source}`).all(...statement.values) as {
    detail: string;
  }[];
  return rows.map((row) => row.detail);
}
