// GET /v1/approvals/:id — one approval; POST — decide it ({decision, note?}): the waiting turn goes on
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { decideApproval, decisionBody, getApprovalOrThrow } from "@/lib/services/approvals/approvals";
import { BODY_LIMITS } from "@/lib/api/body-limits";
import { READ_APPROVALS } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(
  async (_req, { db, params, principal }) => json(await getApprovalOrThrow(db, principal, params.id)),
  { scopes: READ_APPROVALS },
);

export const POST = route<Params>(
  async (req, { db, params, principal }) =>
    json(await decideApproval(db, principal, params.id, await readBody(req, decisionBody, BODY_LIMITS.small))),
  { scopes: ["approvals:decide"] },
);

export const { PUT, PATCH, DELETE } = refuseMethods(["GET", "POST"]);
