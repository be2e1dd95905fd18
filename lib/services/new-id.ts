import crypto from "node:crypto";

/** A random id with a readable prefix: `turn_…`, `ses_…`. */
export const newId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString("base64url")}`;
