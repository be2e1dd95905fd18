/**
 * Readiness (GET /v1/ready), what a load balancer asks before it sends an instance traffic:
 * the database answers, within READY_TIMEOUT_MS, and holds every migration this build
 * ships. Liveness is /v1/health (the process answers), which never touches the database.
 */
import type { Db } from "@/db/database";
import { migrationState } from "@/db/queries/database-info";

const READY_TIMEOUT_MS = 2_000;

export interface Readiness {
  ready: boolean;
  dialect: Db["dialect"];
  /** Why not, when not ready. */
  reason?: string;
  migrations?: { applied: number; shipped: number };
}

export async function checkReadiness(db: Db): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the database did not answer within ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
  });
  try {
    const state = await Promise.race([db.ready().then(() => migrationState(db)), timeout]);
    const migrations = { applied: state.applied, shipped: state.shipped };
    if (!state.current)
      return {
        ready: false,
        dialect: db.dialect,
        reason: `migrations: ${state.applied} of ${state.shipped} applied (restart an instance to migrate)`,
        migrations,
      };
    return { ready: true, dialect: db.dialect, migrations };
  } catch (error) {
    return { ready: false, dialect: db.dialect, reason: `database unreachable: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}
