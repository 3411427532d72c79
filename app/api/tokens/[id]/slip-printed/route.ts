import { recordAuditEvent } from "@/lib/audit";
import { staffRoute } from "@/lib/auth/route";
import { getDb } from "@/lib/db/client";
import { tokenEvents } from "@/lib/db/schema";
import { readScopedTokenRequest } from "@/lib/tokens/token-row";

export const dynamic = "force-dynamic";

/**
 * POST /api/tokens/[id]/slip-printed: the slip page reports that it is being printed (the browser's
 * `beforeprint`, so Ctrl+P counts too); recorded in the token's history and the audit trail. Only
 * from Veridesk's own page: another site must not write into a token's history through a teller's
 * browser (a POST without Sec-Fetch-Site or Origin is refused too).
 */
export const POST = staffRoute<Promise<{ id: string }>>({ permission: "tokens.view", ownOriginOnly: "post" }, async ({ staff, scope, params, requestId }) => {
  const { id } = await params;
  const db = await getDb();
  const { row } = await readScopedTokenRequest(db, scope, id);
  await db.transaction(async (tx) => {
    await tx.insert(tokenEvents).values({ tokenRequestId: row.id, type: "slip.printed", details: { byUserId: staff.userId } });
    await recordAuditEvent(tx, {
      action: "token.slip_printed",
      actor: { userId: staff.userId, username: staff.username },
      subject: { type: "token_request", id: row.id },
      branchId: row.branchId,
      requestId,
    });
  });
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
});
