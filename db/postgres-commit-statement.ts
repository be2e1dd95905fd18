/**
 * The statement a PostgreSQL transaction (or savepoint) ends with: the writes it held until then
 * (Db.beforeCommit) and the notifications it sends, in one round trip.
 */
import { sql, type SQL } from "drizzle-orm";

/**
 * `writes` (inserts, updates, deletes) and `notifications` (channel, payload) as one statement:
 * each write a data-modifying WITH part (PostgreSQL runs every one, to the end, whether or not the
 * rest reads it), the notifications its query. Undefined when there is nothing to send.
 */
export function commitStatement(writes: SQL[], notifications: [string, string][]): SQL | undefined {
  const notify =
    notifications.length > 0
      ? sql`select pg_notify(n->>0, n->>1) from jsonb_array_elements(cast(${JSON.stringify(notifications)} as text)::jsonb) as n`
      : undefined;
  if (writes.length === 0) return notify;
  if (writes.length === 1 && !notify) return writes[0];
  const parts = sql.join(
    writes.map((write, i) => sql`${sql.raw(`w${i}`)} as (${write})`),
    sql`, `,
  );
  return sql`with ${parts} ${notify ?? sql`select 1`}`;
}
