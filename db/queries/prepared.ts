/**
 * Placeholders for prepared statements (Db.prepared): a statement is built and prepared once
 * per connection and run with values for its named parameters.
 */
import { sql, type SQL } from "drizzle-orm";

/** A named parameter, encoded by its column (JSON columns are stringified, booleans become 0/1). */
export const param = (name: string) => sql.placeholder(name);

/**
 * A named parameter bound as given, not encoded by its column: for a nullable JSON
 * column, pass `jsonOrNull(value)` so that null stays SQL NULL (the column's encoder
 * would store the text "null").
 */
export const rawParam = (name: string): SQL => sql`${sql.placeholder(name)}`;

export const jsonOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);
