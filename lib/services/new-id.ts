import crypto from "node:crypto";

/** Random bytes drawn in batches: one call into the CSPRNG per 256 ids instead of one per id. */
const RANDOM_BYTES = 9;
let pool = Buffer.alloc(0);
let used = 0;

function randomBytes(): Buffer {
  if (used + RANDOM_BYTES > pool.length) {
    pool = crypto.randomBytes(RANDOM_BYTES * 256);
    used = 0;
  }
  used += RANDOM_BYTES;
  return pool.subarray(used - RANDOM_BYTES, used);
}

/**
 * A random id with a readable prefix: `turn_…`, `ses_…`. The id starts with its creation
 * time (milliseconds, base 36, fixed width, so ids sort by it) and ends with 72 random bits.
 * Time-ordered ids keep the indexes keyed by them (events by turn, messages by session...)
 * appending near their end: a group commit of many turns then dirties a few index pages
 * instead of one random page per row.
 */
export const newId = (prefix: string, now = Date.now()) =>
  `${prefix}_${now.toString(36).padStart(9, "0")}${randomBytes().toString("base64url")}`;
