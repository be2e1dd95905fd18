"use server";
// Server actions of the Keys page: admin only (checked here, not only by the page).
import { z } from "zod";
import { assertScope } from "@/lib/access/principal";
import { parseWith, pathSegment } from "@/lib/api/route";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { validationFailed } from "@/lib/errors";
import { createKey, createKeyBody, revokeKey } from "@/lib/services/keys/api-keys";
import { asResult, parseArgs, studioDb } from "../action-result";

/**
 * The create form's fields as the browser sends them: strings, empty when left blank
 * (`expiresOn`: YYYY-MM-DD; the key stops working at the start of that day, UTC). Only their
 * types are checked here: the body made of them then gets POST /v1/keys's rules (createKeyBody).
 */
const createKeyForm = z
  .object({
    name: z.string(),
    scopes: z.array(z.string()),
    agents: z.array(z.string()),
    tenant: z.string(),
    expiresOn: z.string(),
    turnsPerMinute: z.string(),
  })
  .strict();

export type CreateKeyForm = z.infer<typeof createKeyForm>;

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
    const args = parseArgs({ form: createKeyForm }, { form });
    return createKey(studioDb(), actor, parseWith(createKeyBody, bodyOf(args.form)));
  });
}

export async function revokeKeyAction(id: string) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["admin"], "revoking a key");
    const args = parseArgs({ id: pathSegment }, { id });
    return (await revokeKey(studioDb(), actor, args.id)).status;
  });
}
