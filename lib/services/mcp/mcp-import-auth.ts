/**
 * How an imported MCP server is authenticated beyond static headers: OAuth 2.1 client
 * credentials (`auth: {type: "oauth_client_credentials", client_id, client_secret:
 * "{{secret.NAME}}", scope?}`). What is stored (a setting per instance, `mcp_auth:<name>`)
 * holds the client id, the secret's *reference* and the scope — never a secret value or a
 * token (DESIGN D3); tokens live in this process's memory (mcp-oauth-tokens.ts).
 */
import { z } from "zod";
import { getSetting, setSetting } from "@/db/queries/settings";
import type { Db } from "@/db/database";
import { validationFailed } from "@/lib/errors";
import type { SecretSource } from "@/lib/secrets/secret-source";

export const OAUTH_CLIENT_CREDENTIALS = "oauth_client_credentials";
const SECRET_REF = /^\{\{secret\.([A-Za-z_][A-Za-z0-9_]*)\}\}$/;

export const authSchema = z.strictObject({
  type: z.literal(OAUTH_CLIENT_CREDENTIALS, { message: `auth.type must be '${OAUTH_CLIENT_CREDENTIALS}'` }),
  client_id: z.string().min(1, "auth.client_id is required").max(500, "auth.client_id must be at most 500 characters"),
  client_secret: z.string().regex(SECRET_REF, "auth.client_secret must be a secret reference: {{secret.NAME}}"),
  scope: z.string().max(1000, "auth.scope must be at most 1000 characters").optional(),
});

/** What is stored for an instance (no secret value). */
export interface StoredMcpAuth {
  type: typeof OAUTH_CLIENT_CREDENTIALS;
  client_id: string;
  /** The secret's name (read at call time). */
  client_secret_name: string;
  scope?: string;
}

/** The auth of an import request, checked, with the secret resolved for discovery. */
export interface McpImportAuth {
  stored: StoredMcpAuth;
  clientSecret: string;
}

/** Checks `auth` (already shape-checked by authSchema) and resolves its secret; 422 when it is not provisioned. */
export function resolveImportAuth(auth: z.infer<typeof authSchema>, secrets: SecretSource): McpImportAuth {
  if (/[\r\n\0]/.test(auth.client_id)) throw validationFailed("auth.client_id must not contain CR, LF or NUL");
  const name = SECRET_REF.exec(auth.client_secret)![1]!;
  const clientSecret = secrets.read(name);
  if (clientSecret === undefined) throw validationFailed(`auth.client_secret: secret '${name}' is not provisioned`);
  const stored: StoredMcpAuth = { type: OAUTH_CLIENT_CREDENTIALS, client_id: auth.client_id, client_secret_name: name };
  if (auth.scope) stored.scope = auth.scope;
  return { stored, clientSecret };
}

/** The setting that holds an instance's auth. */
export const mcpAuthKey = (instance: string) => `mcp_auth:${instance}`;

/** Records an instance's auth (null: none) — inside the import's transaction. */
export async function writeMcpAuth(db: Db, instance: string, auth: StoredMcpAuth | null): Promise<void> {
  if (auth === null && (await getSetting(db, mcpAuthKey(instance))) === undefined) return;
  await setSetting(db, mcpAuthKey(instance), JSON.stringify(auth));
}

/** An instance's stored auth, or null (none, or unreadable). */
export async function readMcpAuth(db: Db, instance: string): Promise<StoredMcpAuth | null> {
  return parseStoredMcpAuth(await getSetting(db, mcpAuthKey(instance)));
}

/** A stored auth setting's value, or null (absent, none, or unreadable). */
export function parseStoredMcpAuth(raw: string | undefined): StoredMcpAuth | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as StoredMcpAuth | null;
    return value && value.type === OAUTH_CLIENT_CREDENTIALS && typeof value.client_id === "string" ? value : null;
  } catch {
    return null;
  }
}
