// GET /v1/audit?target=&actor=&since=&before=&limit= — the audit log, newest first
import { json, parseWith, route, refuseMethods } from "@/lib/api/route";
import { queryObject } from "@/lib/api/query-params";
import { auditQuery, listAudit } from "@/lib/services/audit/list-audit";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(
  async (req, { db, principal }) =>
    json(await listAudit(db, principal, parseWith(auditQuery, queryObject(req.nextUrl.searchParams)))),
  { scopes: ["admin"] },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
