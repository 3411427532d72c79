import "server-only";
import type { Staff } from "@/lib/auth/types";
import type { Database } from "@/lib/db/types";
import { verifyAuditChain, type ChainReport } from "./chain";
import { recordAuditEvent } from "./index";

/**
 * "Verify the trail" on the audit page (ADR 0019): recomputes every event's hash and records the
 * check, head hash included. A server action runs it (a POST from Veridesk's own page), never the
 * page's GET: another site's link must not make an administrator's browser write to the trail.
 */
export async function verifyAndRecordAuditChain(db: Database, context: { staff: Staff; requestId: string }): Promise<ChainReport> {
  const report = await verifyAuditChain(db);
  await recordAuditEvent(
    {
      action: "audit.chain_verified",
      actor: { userId: context.staff.userId, username: context.staff.username },
      branchId: context.staff.branch.id,
      details: {
        eventCount: report.eventCount,
        headSeq: report.headSeq,
        headHash: report.headHash,
        intact: report.firstBreak === null,
        ...(report.firstBreak ? { firstBrokenEventId: report.firstBreak.id } : {}),
      },
      requestId: context.requestId,
    },
    db,
  );
  return report;
}
