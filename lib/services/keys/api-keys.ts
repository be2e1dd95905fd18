/**
 * API keys: created (the value shown once), listed (never the value), revoked; and the
 * lookup every request makes. Only a SHA-256 of a value is stored. Nothing is cached, so a
 * revocation holds on the next request in every process that shares the database.
 */
import crypto from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/database";
import { getAgent } from "@/db/queries/agents";
import {
  getApiKey,
  getApiKeyByHash,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  touchApiKey,
} from "@/db/queries/api-keys";
import type { ApiKeyRow } from "@/db/schema";
import { assertUnpinned, type Principal, type ActorSource } from "@/lib/access/principal";
import { SCOPES, type Scope } from "@/lib/access/scopes";
import { DomainError, notFound, validationFailed } from "@/lib/errors";
import { recordAudit } from "@/lib/services/audit/record-audit";
import { newId } from "@/lib/services/new-id";

export const KEY_PREFIX = "insk_";
/** last_used_at is written at most this often per key, so that a read stays a read. */
const TOUCH_EVERY_MS = 60_000;

export const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

/** A new key value: the prefix and 32 random bytes. */
export const newKeyValue = () => `${KEY_PREFIX}${crypto.randomBytes(32).toString("base64url")}`;

/** What may be shown of a value: enough to tell keys apart, never enough to use one. */
export const displayPrefix = (value: string) => `${value.slice(0, KEY_PREFIX.length + 4)}…`;

export const createKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: z.array(z.enum(SCOPES)).min(1, "a key needs at least one scope"),
    agents: z.array(z.string().min(1).max(200)).max(1000).optional(),
    tenant: z.string().trim().min(1).max(200).optional(),
    expires_at: z.iso.datetime({ offset: true }).optional(),
    turns_per_minute: z.number().int().min(1).max(100_000).optional(),
  })
  .strict();

export type CreateKeyBody = z.infer<typeof createKeyBody>;

export type KeyStatus = "active" | "revoked" | "expired";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function statusOf(row: ApiKeyRow, now: number): KeyStatus {
  if (row.revokedAt !== null) return "revoked";
  if (row.expiresAt !== null && row.expiresAt <= now) return "expired";
  return "active";
}

/** A key as the API and the Studio show it: never its value or hash. */
export function presentKey(row: ApiKeyRow, now = Date.now()) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    agents: row.agents,
    tenant: row.tenant,
    turns_per_minute: row.turnsPerMinute,
    expires_at: iso(row.expiresAt),
    created_at: iso(row.createdAt),
    last_used_at: iso(row.lastUsedAt),
    revoked_at: iso(row.revokedAt),
    status: statusOf(row, now),
  };
}

/** Creates a key; the answer is the only place its value ever appears. */
export async function createKey(db: Db, actor: Principal, body: CreateKeyBody, now = Date.now()) {
  // A pinned admin could otherwise mint itself a key without the pin.
  assertUnpinned(actor, "managing keys");
  const expiresAt = body.expires_at === undefined ? null : Date.parse(body.expires_at);
  if (expiresAt !== null && expiresAt <= now) throw validationFailed("expires_at: must be in the future");
  for (const agent of body.agents ?? []) {
    if (!(await getAgent(db, agent))) throw validationFailed(`agents: agent '${agent}' does not exist`);
  }
  if (body.agents && body.scopes.some((s) => s !== "turns:run")) {
    // An agent list limits what turns:run reaches; on a write or read scope it would promise a limit nobody enforces.
    throw validationFailed("agents: only a turns:run key can be limited to agents");
  }
  const value = newKeyValue();
  const row = await db.transaction(async (tx) => {
    const inserted = await insertApiKey(tx, {
      id: newId("key", now),
      name: body.name,
      hash: sha256(value),
      prefix: displayPrefix(value),
      scopes: [...new Set(body.scopes)],
      agents: body.agents ? [...new Set(body.agents)] : null,
      tenant: body.tenant ?? null,
      turnsPerMinute: body.turns_per_minute ?? null,
      expiresAt,
      createdAt: now,
    });
    await recordAudit(
      tx,
      actor,
      {
        action: "key.create",
        target: `key:${inserted.id}`,
        summary: { name: inserted.name, scopes: inserted.scopes, agents: inserted.agents, tenant: inserted.tenant },
      },
      now,
    );
    return inserted;
  });
  const shown = presentKey(row, now);
  return {
    id: shown.id,
    key: value,
    name: shown.name,
    scopes: shown.scopes,
    agents: shown.agents,
    tenant: shown.tenant,
    expires_at: shown.expires_at,
    turns_per_minute: shown.turns_per_minute,
    created_at: shown.created_at,
  };
}

export async function listKeys(db: Db, actor: Principal, now = Date.now()) {
  assertUnpinned(actor, "listing keys");
  return (await listApiKeys(db)).map((row) => presentKey(row, now));
}

/** Revokes a key (404 unknown, 409 already revoked); it stops working on the next request everywhere. */
export async function revokeKey(db: Db, actor: Principal, id: string, now = Date.now()) {
  assertUnpinned(actor, "managing keys");
  const row = await getApiKey(db, id);
  if (!row) throw notFound(`key '${id}'`);
  if (actor.keyId === id) throw new DomainError("conflict", "a key cannot revoke itself: use another admin key");
  await db.transaction(async (tx) => {
    if (!(await revokeApiKey(tx, id, now))) throw new DomainError("conflict", `key '${id}' is already revoked`);
    await recordAudit(tx, actor, { action: "key.revoke", target: `key:${id}`, summary: { name: row.name } }, now);
  });
  return presentKey({ ...row, revokedAt: now }, now);
}

export type Authentication =
  { ok: true; principal: Principal } | { ok: false; reason: "missing" | "unknown" | "revoked" | "expired" };

/** The principal a presented key value stands for, or why there is none. */
export async function authenticateKey(
  db: Db,
  presented: string | null | undefined,
  source: ActorSource,
  now = Date.now(),
): Promise<Authentication> {
  if (!presented) return { ok: false, reason: "missing" };
  const row = await getApiKeyByHash(db, sha256(presented));
  if (!row) return { ok: false, reason: "unknown" };
  const status = statusOf(row, now);
  if (status !== "active") return { ok: false, reason: status };
  if (row.lastUsedAt === null || now - row.lastUsedAt > TOUCH_EVERY_MS) await touchApiKey(db, row.id, now);
  return { ok: true, principal: principalOf(row, source) };
}

/** The principal of a stored key (the Studio session keeps the key id, and reads the key again on every request). */
export function principalOf(row: ApiKeyRow, source: ActorSource): Principal {
  return {
    keyId: row.id,
    keyName: row.name,
    scopes: row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
    agents: row.agents,
    tenant: row.tenant,
    turnsPerMinute: row.turnsPerMinute,
    source,
  };
}

/**
 * Why the stored key `id` no longer lets its holder in (`revoked`, `expired`, or `unknown`
 * once its row is gone), or undefined while it does: for what a key opened and keeps open.
 */
export async function keyLapse(
  db: Db,
  id: string,
  now = Date.now(),
): Promise<Exclude<KeyStatus, "active"> | "unknown" | undefined> {
  const row = await getApiKey(db, id);
  if (!row) return "unknown";
  const status = statusOf(row, now);
  return status === "active" ? undefined : status;
}

/** The active key with this id, or undefined (revoked, expired or gone). */
export async function activeKey(db: Db, id: string, now = Date.now()): Promise<ApiKeyRow | undefined> {
  const row = await getApiKey(db, id);
  return row && statusOf(row, now) === "active" ? row : undefined;
}
