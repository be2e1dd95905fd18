/**
 * Which sessions a Studio key may see: a turns:run key its own agents' (and tenant's), a
 * traces:read key every one (of its tenant, when pinned). A session it may not see answers
 * as unknown, so a key cannot probe which ids exist.
 */
import { maySeeSession, type Principal } from "@/lib/access/principal";
import { notFound } from "@/lib/errors";
import { getSessionOrThrow } from "@/lib/services/sessions/sessions";

type Db = Parameters<typeof getSessionOrThrow>[0];

export function getVisibleSessionOrThrow(db: Db, principal: Principal, id: string) {
  const session = getSessionOrThrow(db, id);
  if (!maySeeSession(principal, session)) throw notFound(`session '${id}'`);
  return session;
}
