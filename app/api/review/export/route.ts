import { staffRoute } from "@/lib/auth/route";
import { getDb } from "@/lib/db/client";
import { exportMaskedTokens } from "@/lib/review/export";
import { parseListQuery } from "@/lib/review/filters";

export const dynamic = "force-dynamic";

/** GET /api/review/export?<the list's filters> — the filtered token list as CSV, ID numbers masked. */
// A cross-site link must not make a supervisor's browser run (and audit) an export.
export const GET = staffRoute({ permission: "tokens.export", ownOriginOnly: "get" }, async ({ request, staff, scope, requestId }) => {
  const { query } = parseListQuery(new URL(request.url).searchParams);
  return exportMaskedTokens(await getDb(), { staff, scope, requestId }, query);
});
