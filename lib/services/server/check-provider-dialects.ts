/**
 * The doctor's `provider-dialects` check: every tool an agent is offered
 * that its provider would reject (services/agents/dialect-problems), one item
 * per problem: `<agent> / <tool>: <path>: <what> (<hint>)`.
 */
import type { Db } from "@/db/client";
import { errorMessage } from "@/lib/errors";
import { listDialectProblems } from "@/lib/services/agents/dialect-problems";
import type { DoctorCheck } from "./doctor";

/** Shown at most; the message says how many there are in all. */
const MAX_ITEMS = 200;

export async function checkProviderDialects(db: Db): Promise<DoctorCheck> {
  try {
    const problems = await listDialectProblems(db);
    if (problems.length === 0) {
      return {
        name: "provider-dialects",
        status: "ok",
        message: "every tool offered to an agent fits its provider's schema dialect",
      };
    }
    const tools = new Set(problems.map((p) => `${p.agent}/${p.tool}`)).size;
    return {
      name: "provider-dialects",
      status: "warn",
      message: `${problems.length} schema problem(s) in ${tools} agent/tool pair(s) that the provider would reject at turn time`,
      items: problems.slice(0, MAX_ITEMS).map((p) => `${p.agent} / ${p.tool}: ${p.message}`),
    };
  } catch (error) {
    return { name: "provider-dialects", status: "error", message: errorMessage(error) };
  }
}
