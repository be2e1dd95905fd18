// Any other /v1 path, any method — 404 in the error envelope (Next's own 404 is an HTML page)
import { DomainError } from "@/lib/errors";
import { route } from "@/lib/api/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const unknown = route(
  async (req) => {
    throw new DomainError("not_found", `no such endpoint: ${req.method} ${req.nextUrl.pathname.slice(0, 200)}`);
  },
  { scopes: "public" },
);

export { unknown as GET, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
