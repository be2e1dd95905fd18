// GET /v1/approvals?status=pending — the approvals the key may see, oldest first (expired ones are marked first)
import { queryObject } from "@/lib/api/query-params";
import { z } from "zod";
import { json, parseWith, route, refuseMethods } from "@/lib/api/route";
import { listApprovalsPresented } from "@/lib/services/approvals/approvals";
import { READ_APPROVALS } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const query = z.object({ status: z.enum(["pending", "approved", "rejected", "expired"]).optional() });

export const GET = route(
  async (req, { db, principal }) => {
    const { status } = parseWith(query, queryObject(req.nextUrl.searchParams));
    return json({ approvals: await listApprovalsPresented(db, principal, status) });
  },
  { scopes: READ_APPROVALS },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
