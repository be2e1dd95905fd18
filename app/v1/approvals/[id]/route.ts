// GET /v1/approvals/:id — one approval; POST — decide it ({decision, note?}): the waiting turn goes on
import { z } from "zod";
import { json, readBody, route } from "@/lib/api/route";
import { decideApproval, getApprovalOrThrow } from "@/lib/services/approvals/approvals";
import { BODY_LIMITS } from "@/lib/api/body-limits";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { id: string };

const body = z.object({ decision: z.enum(["approved", "rejected"]), note: z.string().max(2000).optional() }).strict();

export const GET = route<Params>(async (_req, { db, params }) => json(getApprovalOrThrow(db, params.id)));

export const POST = route<Params>(async (req, { db, params }) => json(decideApproval(db, params.id, await readBody(req, body, BODY_LIMITS.small))));
