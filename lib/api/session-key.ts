/**
 * The key that signs Studio session cookies: 32 random bytes in `<data dir>/session-key`
 * (mode 0600, beside `api-token`), never in insika.db, so a copy of the database (or its
 * WAL) is not enough to forge a session. Created once, atomically (several processes may
 * start together: the first link wins, the others read its key).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const cache = new Map<string, Buffer>();

export function sessionKeyFile(dataDir: string): string {
  return path.join(dataDir, "session-key");
}

/** The session key of a data directory, created on first use. */
export function getSessionKey(dataDir: string): Buffer {
  const cached = cache.get(dataDir);
  if (cached) return cached;
  const file = sessionKeyFile(dataDir);
  const key = readKey(file) ?? createKey(dataDir, file);
  cache.set(dataDir, key);
  return key;
}

/** Forgets cached keys (tests that replace a data directory's key file). */
export function clearSessionKeyCache(): void {
  cache.clear();
}

function readKey(file: string): Buffer | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (!/^[0-9a-f]{64}$/.test(text))
    throw new Error(`${file} is not a session key (64 hex characters): delete it to make a new one`);
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return Buffer.from(text, "hex");
}

function createKey(dataDir: string, file: string): Buffer {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}`;
  fs.writeFileSync(tmp, `${crypto.randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.unlinkSync(tmp);
  }
  const key = readKey(file);
  if (!key) throw new Error(`could not create ${file}`);
  return key;
}
