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

/**
 * Text the model or a tool produced, as this dialect can store it: PostgreSQL cannot hold U+0000
 * in a text column (SQLite can), so there it becomes U+FFFD, the replacement character. Input a
 * client sends is refused instead (400): this is for what the product itself records.
 */
export function storableText(db: { dialect: string }, text: string): string;
export function storableText(db: { dialect: string }, text: string | null): string | null;
export function storableText(db: { dialect: string }, text: string | null): string | null {
  if (text === null || db.dialect !== "postgres" || !text.includes("\u0000")) return text;
  return text.replaceAll("\u0000", "\uFFFD");
}
