import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import crypto from "node:crypto";
import { ensureApiToken, rotateApiToken, tokenFile, verifyToken } from "@/lib/services/server/api-token";
import { bearerToken, issueSessionCookie, revokeSessionCookie, verifySessionCookie } from "./auth";
import { clearSessionKeyCache, sessionKeyFile } from "./session-key";

const setup = () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "insika-auth-"));
  return { db: openDb(":memory:"), config: { dataDir } };
};

describe("API token", () => {
  it("generates a token once, stores only its hash, and writes it 0600", () => {
    const { db, config } = setup();
    const token = ensureApiToken(db, config);
    expect(token).toMatch(/^insk_/);
    expect(ensureApiToken(db, config)).toBeNull();
    const file = tokenFile(config.dataDir);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(token);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = db.$client.prepare("select value from settings").all() as { value: string }[];
    expect(stored.some((r) => r.value.includes(token!))).toBe(false);
    expect(verifyToken(db, config, token)).toBe(true);
    expect(verifyToken(db, config, `${token}x`)).toBe(false);
    expect(verifyToken(db, config, "")).toBe(false);
  });

  it("uses INSIKA_API_TOKEN when set and stores nothing", () => {
    const { db, config } = setup();
    const withEnv = { ...config, envToken: "a-very-long-env-token" };
    expect(ensureApiToken(db, withEnv)).toBeNull();
    expect(verifyToken(db, withEnv, "a-very-long-env-token")).toBe(true);
    expect(verifyToken(db, withEnv, "other")).toBe(false);
    expect(() => rotateApiToken(db, withEnv)).toThrow(/INSIKA_API_TOKEN/);
  });

  it("reads bearer tokens strictly", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken(null)).toBeNull();
    expect(bearerToken("Bearer a b")).toBeNull();
  });

  it("signs Studio sessions with the token: expiry, tampering and rotation end them", () => {
    const { db, config } = setup();
    ensureApiToken(db, config);
    const cookie = issueSessionCookie(db, config, 1_000);
    expect(verifySessionCookie(db, config, cookie, 2_000)).toBe(true);
    expect(verifySessionCookie(db, config, cookie, 1_000 + 13 * 3600_000)).toBe(false);
    const [expires, sid, mac] = cookie.split(".");
    expect(verifySessionCookie(db, config, `${Number(expires) + 1}.${sid}.${mac}`, 2_000)).toBe(false);
    rotateApiToken(db, config);
    expect(verifySessionCookie(db, config, cookie, 2_000)).toBe(false);
  });

  it("keys sessions with a 0600 key file outside the database: what insika.db holds cannot forge one", () => {
    const { db, config } = setup();
    ensureApiToken(db, config);
    const cookie = issueSessionCookie(db, config, 1_000);
    expect(fs.statSync(sessionKeyFile(config.dataDir)).mode & 0o777).toBe(0o600);
    const key = fs.readFileSync(sessionKeyFile(config.dataDir), "utf8").trim();
    const stored = db.$client.prepare("select value from settings").all() as { value: string }[];
    expect(stored.some((r) => r.value.includes(key))).toBe(false);
    // The old scheme: an HMAC keyed by the token hash that the database holds.
    const hash = (db.$client.prepare("select value from settings where key = 'api_token_hash'").get() as { value: string }).value;
    const [expires, sid] = cookie.split(".");
    for (const data of [`${expires}.${sid}`, String(expires)]) {
      const forged = crypto.createHmac("sha256", hash).update(`insika-studio:${data}`).digest("hex");
      expect(verifySessionCookie(db, config, `${expires}.${sid}.${forged}`, 2_000)).toBe(false);
      expect(verifySessionCookie(db, config, `${expires}.${forged}`, 2_000)).toBe(false);
    }
    expect(verifySessionCookie(db, config, cookie, 2_000)).toBe(true);
  });

  it("a new key file ends every session; a key file of another installation does not verify ours", () => {
    const { db, config } = setup();
    ensureApiToken(db, config);
    const cookie = issueSessionCookie(db, config, 1_000);
    fs.rmSync(sessionKeyFile(config.dataDir));
    clearSessionKeyCache();
    expect(verifySessionCookie(db, config, cookie, 2_000)).toBe(false);
  });

  it("sign-out revokes the session server-side, and only that session", () => {
    const { db, config } = setup();
    ensureApiToken(db, config);
    const now = Date.now();
    const mine = issueSessionCookie(db, config, now);
    const copy = `${mine}`;
    const other = issueSessionCookie(db, config, now);
    revokeSessionCookie(db, config, mine, now);
    expect(verifySessionCookie(db, config, copy, now + 1)).toBe(false);
    expect(verifySessionCookie(db, config, other, now + 1)).toBe(true);
    // Garbage and forged cookies revoke nothing and do not throw.
    revokeSessionCookie(db, config, "x.y.z", now);
    revokeSessionCookie(db, config, undefined, now);
    expect(verifySessionCookie(db, config, other, now + 1)).toBe(true);
  });

  it("forgets revocations once their cookie would have expired", () => {
    const { db, config } = setup();
    ensureApiToken(db, config);
    const old = issueSessionCookie(db, config, 1_000);
    revokeSessionCookie(db, config, old, 2_000);
    const count = () => (db.$client.prepare("select count(*) as n from settings where key like 'studio_session_revoked:%'").get() as { n: number }).n;
    expect(count()).toBe(1);
    const later = Date.now();
    revokeSessionCookie(db, config, issueSessionCookie(db, config, later), later);
    expect(count()).toBe(1);
  });

  it("refuses malformed cookies without throwing", () => {
    const { db, config } = setup();
    ensureApiToken(db, config);
    for (const bad of ["", "1.2", `${"9".repeat(16)}.${"a".repeat(32)}.${"b".repeat(64)}`, "1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA." + "0".repeat(64), "\u0000"]) {
      expect(verifySessionCookie(db, config, bad)).toBe(false);
    }
  });
});
