"use server";
// Server actions of the Keys page: admin only (checked here, not only by the page).
import { assertScope } from "@/lib/access/principal";
import { parseWith } from "@/lib/api/route";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { validationFailed } from "@/lib/errors";
import { createKey, createKeyBody, revokeKey } from "@/lib/services/keys/api-keys";
import { asResult, studioDb } from "../action-result";

/** The create form's fields as the browser sends them: strings, empty when left blank. */
export interface CreateKeyForm {
  name: string;
  scopes: string[];
  agents: string[];
  tenant: string;
  /** YYYY-MM-DD; the key stops working at the start of that day (UTC). */
  expiresOn: string;
  turnsPerMinute: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function bodyOf(form: CreateKeyForm): unknown {
  const expiresOn = form.expiresOn.trim();
  if (expiresOn && (!DAY.test(expiresOn) || Number.isNaN(Date.parse(`${expiresOn}T00:00:00Z`))))
    throw validationFailed(`expires: '${expiresOn}' is not a date (YYYY-MM-DD)`);
  const perMinute = form.turnsPerMinute.trim();
  if (perMinute && !/^\d{1,9}$/.test(perMinute))
    throw validationFailed(`turns per minute: '${perMinute}' is not a whole number`);
  return {
    name: form.name,
    scopes: form.scopes,
    ...(form.agents.length ? { agents: form.agents } : {}),
    ...(form.tenant.trim() ? { tenant: form.tenant.trim() } : {}),
    ...(expiresOn ? { expires_at: `${expiresOn}T00:00:00Z` } : {}),
    ...(perMinute ? { turns_per_minute: Number(perMinute) } : {}),
  };
}

/** Creates a key; the answer carries its value, the only time it is ever shown. */
export async function createKeyAction(form: CreateKeyForm) {
  const actor = await requireStudioSession();
  return asResult(() => {
    assertScope(actor, ["admin"], "creating a key");
    return createKey(studioDb(), actor, parseWith(createKeyBody, bodyOf(form)));
  });
}

export async function revokeKeyAction(id: string) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["admin"], "revoking a key");
    return (await revokeKey(studioDb(), actor, String(id))).status;
  });
}
