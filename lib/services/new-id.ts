import crypto from "node:crypto";

/** Random bytes drawn in batches: one call into the CSPRNG per 256 ids instead of one per id. */
const ID_BYTES = 12;
let pool = Buffer.alloc(0);
let used = 0;

function randomIdBytes(): Buffer {
  if (used + ID_BYTES > pool.length) {
    pool = crypto.randomBytes(ID_BYTES * 256);
    used = 0;
  }
  used += ID_BYTES;
  return pool.subarray(used - ID_BYTES, used);
}

/** A random id with a readable prefix: `turn_…`, `ses_…`. */
export const newId = (prefix: string) => `${prefix}_${randomIdBytes().toString("base64url")}`;
