/**
 * The Studio's calls list (/calls): the query string parsed into a filter (every bad value
 * named, never a 500), then one page of calls, newest first, with the link to each call's trace.
 */
import type { Db } from "@/db/client";
import { listCalls, type CallFilter, type CallListRow } from "@/db/queries/overview";

export type { CallListRow };

export const CALLS_PAGE_SIZE = 50;
const OUTCOMES = ["ok", "error", "blocked"] as const;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export interface CallsPage {
  filter: Omit<CallFilter, "limit">;
  problems: string[];
  calls: CallListRow[];
  /** The `before` cursor of the next (older) page (`<started_at>_<id>`), when there may be one. */
  older?: string;
}

type Query = Record<string, string | string[] | undefined>;

export function parseCallFilter(query: Query): { filter: Omit<CallFilter, "limit">; problems: string[] } {
  const filter: Omit<CallFilter, "limit"> = {};
  const problems: string[] = [];
  const one = (key: string) => {
    const v = query[key];
    return Array.isArray(v) ? v[0] : v;
  };
  for (const key of ["tool", "agent"] as const) {
    const v = one(key);
    if (v === undefined || v === "") continue;
    if (NAME.test(v)) filter[key] = v;
    else problems.push(`${key}: '${v.slice(0, 40)}' is not a ${key} name`);
  }
  const outcome = one("outcome");
  if (outcome !== undefined && outcome !== "") {
    if ((OUTCOMES as readonly string[]).includes(outcome)) filter.outcome = outcome as CallFilter["outcome"];
    else problems.push(`outcome: expected one of ${OUTCOMES.join(", ")}`);
  }
  for (const key of ["since", "until"] as const) {
    const v = one(key);
    if (v === undefined || v === "") continue;
    if (/^\d{1,16}$/.test(v) && Number.isSafeInteger(Number(v))) filter[key] = Number(v);
    else problems.push(`${key}: expected a whole number of ms since the epoch`);
  }
  const before = one("before");
  if (before !== undefined && before !== "") {
    const m = /^(\d{1,16})_(\d{1,16})$/.exec(before);
    if (m) filter.before = { startedAt: Number(m[1]), id: Number(m[2]) };
    else problems.push("before: expected a cursor <started_at>_<id> (the link to older calls gives one)");
  }
  return { filter, problems };
}

/** One page of calls; `tenant` (a key pinned to one) keeps it to that tenant's sessions. */
export async function getCallsPage(db: Db, query: Query, tenant?: string): Promise<CallsPage> {
  const { filter, problems } = parseCallFilter(query);
  if (problems.length > 0) return { filter, problems, calls: [] };
  const calls = await listCalls(db, { ...filter, ...(tenant === undefined ? {} : { tenant }), limit: CALLS_PAGE_SIZE });
  const page: CallsPage = { filter, problems, calls };
  const last = calls.at(-1);
  if (last && calls.length === CALLS_PAGE_SIZE) page.older = `${last.startedAt}_${last.id}`;
  return page;
}
