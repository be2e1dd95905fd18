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

/** An escape PostgreSQL's JSON types refuse, or text that looks like one (then nothing changes). */
const UNREADABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i;
/** A surrogate not in a pair (UTF-16 code units: no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const EVERY_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source, "g");

/**
 * `value` as JSON text that PostgreSQL's own JSON functions can read back (the Overview reads
 * call records in SQL). Its json and jsonb types refuse the `\u0000` escape and a lone surrogate
 * (`\ud800`), both of which JSON.stringify writes for strings a tool or a model produced; a
 * single such record would fail every query that reads the column as JSON. There each of them
 * becomes U+FFFD, as storableText does for text; on SQLite the text is JSON.stringify's.
 */
export function storableJson(db: { dialect: string }, value: unknown): string {
  const text = JSON.stringify(value);
  if (db.dialect !== "postgres" || !UNREADABLE_ESCAPE.test(text)) return text;
  // Parsed back (so an escaped backslash before "u0000" stays literal text), cleaned, written again.
  return JSON.stringify(JSON.parse(text, (_key, v: unknown) => readable(v)));
}

const unreadable = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);
const readableText = (text: string) =>
  unreadable(text) ? text.replaceAll("\u0000", "\uFFFD").replace(EVERY_LONE_SURROGATE, "\uFFFD") : text;

/** The reviver's step: a string cleaned; an object whose keys need it rebuilt with clean keys. */
function readable(value: unknown): unknown {
  if (typeof value === "string") return readableText(value);
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (!keys.some(unreadable)) return value;
  return Object.fromEntries(keys.map((key) => [readableText(key), (value as Record<string, unknown>)[key]]));
}
