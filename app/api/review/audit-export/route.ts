import { staffRoute } from "@/lib/auth/route";
import { getDb } from "@/lib/db/client";
import { exportAuditTrail } from "@/lib/review/audit-trail";
import { parseAuditFilter } from "@/lib/review/audit-filter";

export const dynamic = "force-dynamic";

/** GET /api/review/audit-export?staff=&action=&from=&to= — the filtered audit trail as CSV. */
// A cross-site link must not make an administrator's browser run (and audit) an export.
export const GET = staffRoute({ permission: "audit.read", ownOriginOnly: "get" }, async ({ request, staff, requestId }) => {
  const filter = parseAuditFilter(new URL(request.url).searchParams);
  return exportAuditTrail(await getDb(), { staff, requestId }, filter);
});
