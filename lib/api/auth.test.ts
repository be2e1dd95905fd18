import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { bearerToken, ensureApiToken, issueSessionCookie, rotateApiToken, tokenFile, verifySessionCookie, verifyToken } from "./auth";

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
    const [expires, mac] = cookie.split(".");
    expect(verifySessionCookie(db, config, `${Number(expires) + 1}.${mac}`, 2_000)).toBe(false);
    rotateApiToken(db, config);
    expect(verifySessionCookie(db, config, cookie, 2_000)).toBe(false);
  });
});
