import crypto from "node:crypto";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { operatorPrincipal } from "@/lib/access/principal";
import { authenticateKey, createKey, revokeKey } from "@/lib/services/keys/api-keys";
import { BOOTSTRAP_KEY_ID, ensureBootstrapKey, rotateBootstrapKey, tokenFile } from "@/lib/services/keys/bootstrap-key";
import { bearerToken, issueSessionCookie, revokeSessionCookie, sessionPrincipal } from "./auth";
import { clearSessionKeyCache, sessionKeyFile } from "./session-key";
import { tempDir } from "@/test/support/temp-dir";

const setup = () => {
  const dataDir = tempDir("insika-auth-");
  return { db: openDb(":memory:"), dataDir, config: { dataDir } };
};
const admin = operatorPrincipal("cli");
const valid = async (db: ReturnType<typeof openDb>, dataDir: string, cookie: string, now = Date.now()) =>
  (await sessionPrincipal(db, dataDir, cookie, now)) !== undefined;

describe("the bootstrap key", () => {
  it("is generated once, stored as a hash only, written 0600, and is an admin key", async () => {
    const { db, config } = setup();
    const token = await ensureBootstrapKey(db, config);
    expect(token).toMatch(/^insk_/);
    expect(await ensureBootstrapKey(db, config)).toBeNull();
    const file = tokenFile(config.dataDir);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(token);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const rows = JSON.stringify(db.client.prepare("select * from api_keys").all());
    expect(rows).not.toContain(token!);
    const auth = await authenticateKey(db, token, "api");
    expect(auth.ok && auth.principal.scopes).toEqual(["admin"]);
    expect(await authenticateKey(db, `${token}x`, "api")).toEqual({ ok: false, reason: "unknown" });
    expect(await authenticateKey(db, "", "api")).toEqual({ ok: false, reason: "missing" });
  });

  it("is INSIKA_API_TOKEN when set, follows it when it changes, and cannot be rotated here", async () => {
    const { db, config } = setup();
    const withEnv = { ...config, envToken: "a-very-long-env-token" };
    expect(await ensureBootstrapKey(db, withEnv)).toBeNull();
    expect((await authenticateKey(db, "a-very-long-env-token", "api")).ok).toBe(true);
    expect((await authenticateKey(db, "other", "api")).ok).toBe(false);
    await ensureBootstrapKey(db, { ...config, envToken: "the-next-env-token" });
    expect((await authenticateKey(db, "a-very-long-env-token", "api")).ok).toBe(false);
    expect((await authenticateKey(db, "the-next-env-token", "api")).ok).toBe(true);
    await expect(rotateBootstrapKey(db, withEnv)).rejects.toThrow(/INSIKA_API_TOKEN/);
  });

  it("adopts the hash of a token generated before keys existed", async () => {
    const { db, config } = setup();
    const legacy = "insk_legacy-token-value";
    db.client
      .prepare("insert into settings (key, value, updated_at) values ('api_token_hash', ?, 0)")
      .run(crypto.createHash("sha256").update(legacy).digest("hex"));
    expect(await ensureBootstrapKey(db, config)).toBeNull();
    expect((await authenticateKey(db, legacy, "api")).ok).toBe(true);
  });

  it("stays revoked when the same INSIKA_API_TOKEN comes back after a revocation", async () => {
    const { db, config } = setup();
    const withEnv = { ...config, envToken: "a-very-long-env-token" };
    await ensureBootstrapKey(db, withEnv);
    const other = await createKey(db, admin, { name: "ops", scopes: ["admin"] });
    const ops = await authenticateKey(db, other.key, "api");
    if (!ops.ok) throw new Error("expected the new key to work");
    await revokeKey(db, ops.principal, BOOTSTRAP_KEY_ID);
    await ensureBootstrapKey(db, withEnv);
    expect(await authenticateKey(db, "a-very-long-env-token", "api")).toEqual({ ok: false, reason: "revoked" });
  });

  it("reads bearer tokens strictly", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken(null)).toBeNull();
    expect(bearerToken("Bearer a b")).toBeNull();
  });
});

describe("Studio session cookies", () => {
  it("name their key: expiry, tampering, rotation and revocation of the key end them", async () => {
    const { db, dataDir, config } = setup();
    await ensureBootstrapKey(db, config);
    const cookie = await issueSessionCookie(db, dataDir, BOOTSTRAP_KEY_ID, 1_000);
    expect(await valid(db, dataDir, cookie, 2_000)).toBe(true);
    expect(await sessionPrincipal(db, dataDir, cookie, 2_000)).toMatchObject({
      keyId: BOOTSTRAP_KEY_ID,
      scopes: ["admin"],
      source: "studio",
    });
    expect(await valid(db, dataDir, cookie, 1_000 + 13 * 3600_000)).toBe(false);
    const [expires, sid, key, mac] = cookie.split(".");
    expect(await valid(db, dataDir, `${Number(expires) + 1}.${sid}.${key}.${mac}`, 2_000)).toBe(false);
    await rotateBootstrapKey(db, config);
    expect(await valid(db, dataDir, cookie, 2_000)).toBe(false);

    const reader = await createKey(db, admin, { name: "reader", scopes: ["traces:read"] });
    const readerCookie = await issueSessionCookie(db, dataDir, reader.id);
    expect(await sessionPrincipal(db, dataDir, readerCookie)).toMatchObject({
      keyId: reader.id,
      scopes: ["traces:read"],
    });
    // Another key's cookie cannot be made by swapping the key id into a valid one.
    const [e2, s2, , m2] = readerCookie.split(".");
    expect(await valid(db, dataDir, `${e2}.${s2}.${BOOTSTRAP_KEY_ID}.${m2}`)).toBe(false);
    await revokeKey(db, admin, reader.id);
    expect(await valid(db, dataDir, readerCookie)).toBe(false);
  });

  it("are keyed by a 0600 file outside the database: what insika.db holds cannot forge one", async () => {
    const { db, dataDir, config } = setup();
    await ensureBootstrapKey(db, config);
    const cookie = await issueSessionCookie(db, dataDir, BOOTSTRAP_KEY_ID, 1_000);
    expect(fs.statSync(sessionKeyFile(dataDir)).mode & 0o777).toBe(0o600);
    const secret = fs.readFileSync(sessionKeyFile(dataDir), "utf8").trim();
    const stored = JSON.stringify([
      db.client.prepare("select * from settings").all(),
      db.client.prepare("select * from api_keys").all(),
    ]);
    expect(stored).not.toContain(secret);
    // What a copy of the database gives an attacker: the key's hash. An HMAC keyed by it does not verify.
    const hash = (db.client.prepare("select hash from api_keys where id = ?").get(BOOTSTRAP_KEY_ID) as { hash: string })
      .hash;
    const [expires, sid, key] = cookie.split(".");
    const forged = crypto.createHmac("sha256", hash).update(`insika-studio:${expires}.${sid}.${key}`).digest("hex");
    expect(await valid(db, dataDir, `${expires}.${sid}.${key}.${forged}`, 2_000)).toBe(false);
    expect(await valid(db, dataDir, cookie, 2_000)).toBe(true);
  });

  it("end when the key file is replaced", async () => {
    const { db, dataDir, config } = setup();
    await ensureBootstrapKey(db, config);
    const cookie = await issueSessionCookie(db, dataDir, BOOTSTRAP_KEY_ID, 1_000);
    fs.rmSync(sessionKeyFile(dataDir));
    clearSessionKeyCache();
    expect(await valid(db, dataDir, cookie, 2_000)).toBe(false);
  });

  it("sign-out revokes the session server-side, and only that session", async () => {
    const { db, dataDir, config } = setup();
    await ensureBootstrapKey(db, config);
    const now = Date.now();
    const mine = await issueSessionCookie(db, dataDir, BOOTSTRAP_KEY_ID, now);
    const copy = `${mine}`;
    const other = await issueSessionCookie(db, dataDir, BOOTSTRAP_KEY_ID, now);
    await revokeSessionCookie(db, dataDir, mine, now);
    expect(await valid(db, dataDir, copy, now + 1)).toBe(false);
    expect(await valid(db, dataDir, other, now + 1)).toBe(true);
    await revokeSessionCookie(db, dataDir, "x.y.z", now);
    await revokeSessionCookie(db, dataDir, undefined, now);
    expect(await valid(db, dataDir, other, now + 1)).toBe(true);
  });

  it("forgets revocations once their cookie would have expired", async () => {
    const { db, dataDir, config } = setup();
    await ensureBootstrapKey(db, config);
    const old = await issueSessionCookie(db, dataDir, BOOTSTRAP_KEY_ID, 1_000);
    await revokeSessionCookie(db, dataDir, old, 2_000);
    const count = () =>
      (
        db.client.prepare("select count(*) as n from settings where key like 'studio_session_revoked:%'").get() as {
          n: number;
        }
      ).n;
    expect(count()).toBe(1);
    const later = Date.now();
    await revokeSessionCookie(db, dataDir, await issueSessionCookie(db, dataDir, BOOTSTRAP_KEY_ID, later), later);
    expect(count()).toBe(1);
  });

  it("refuses malformed cookies without throwing", async () => {
    const { db, dataDir, config } = setup();
    await ensureBootstrapKey(db, config);
    for (const bad of [
      "",
      "1.2",
      `${"9".repeat(16)}.${"a".repeat(32)}.k.${"b".repeat(64)}`,
      `1.${"A".repeat(32)}.${BOOTSTRAP_KEY_ID}.${"0".repeat(64)}`,
      "\u0000",
      `1.${"a".repeat(32)}.${"k".repeat(200)}.${"0".repeat(64)}`,
    ]) {
      expect(await valid(db, dataDir, bad)).toBe(false);
    }
  });
});
