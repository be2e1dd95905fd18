/**
 * What a failed statement's error says, whichever dialect raised it. Drizzle wraps a
 * driver's error (DrizzleQueryError, the driver's error as `cause`); better-sqlite3 raises a
 * SqliteError with a SQLITE_* code, node-postgres a DatabaseError with a SQLSTATE code.
 */

/** A statement ran on a transaction's handle after the transaction had ended: nothing after it may run. */
export class TransactionEndedError extends Error {
  override name = "TransactionEndedError";
  constructor() {
    super("the transaction has already ended (a statement ended it early)");
  }
}

/** The driver's error code (`SQLITE_CONSTRAINT_UNIQUE`, `23505`, …), or undefined for an error no statement raised. */
export function databaseErrorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    const code = (e as Error & { code?: unknown }).code;
    if (e.name === "SqliteError" && typeof code === "string") return code;
    if (e.name === "error" || e.constructor?.name === "DatabaseError") {
      if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    }
  }
  return undefined;
}

/**
 * Whether the error failed one statement on its data (a constraint, a bad value) and left
 * the transaction usable once that statement is undone: a JS error raised between
 * statements counts too. A failure of the connection, the commit, a full or busy database
 * does not.
 */
export function failsOnlyItsStatement(error: unknown): boolean {
  if (error instanceof TransactionEndedError) return false;
  const code = databaseErrorCode(error);
  if (code === undefined) return !isConnectionError(error);
  if (code.startsWith("SQLITE_"))
    return (
      code.startsWith("SQLITE_CONSTRAINT") ||
      code === "SQLITE_MISMATCH" ||
      code === "SQLITE_TOOBIG" ||
      code === "SQLITE_RANGE"
    );
  // SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation).
  return code.startsWith("22") || code.startsWith("23");
}

/** A network-level failure to reach the database (refused, reset, timed out). */
export function isConnectionError(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    const code = (e as Error & { code?: unknown }).code;
    if (
      typeof code === "string" &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P0[1-3]|08\d{3})$/.test(code)
    )
      return true;
    if (/Connection terminated|connection timeout|Client has encountered a connection error/i.test(e.message))
      return true;
  }
  return false;
}

/**
 * Text the database cannot store: PostgreSQL refuses U+0000 in text (SQLSTATE 22021, or 22P05
 * for a value it cannot convert). The input's problem, not the server's.
 */
export function isUnstorableText(error: unknown): boolean {
  const code = databaseErrorCode(error);
  return code === "22021" || code === "22P05";
}
