import "server-only";
import type { Database } from "@/lib/db/types";
import { verifyAuditChain } from "./chain";
import { toChainCheckReport, type ChainCheckReport } from "./chain-report";
import { recordAuditEvent } from "./index";

/**
 * "Verify the trail" on the audit page (ADR 0019): recomputes every event's hash and records the
 * check, head hash included. A server action runs it (a POST from Veridesk's own page), never the
 * page's GET: another site's link must not make an administrator's browser write to the trail.
 */
export type ChainCheckContext = {
  actor: { userId: string; username: string };
  branchId: string | null;
  requestId: string;
};

export async function verifyAndRecordAuditChain(db: Database, context: ChainCheckContext): Promise<ChainCheckReport> {
  const report = toChainCheckReport(await verifyAuditChain(db));
  await recordAuditEvent(db, {
    action: "audit.chain_verified",
    actor: context.actor,
    branchId: context.branchId,
    details: {
      headHash: report.headHash,
      intact: report.firstBreak === null,
      ...(report.firstBreak ? { firstBrokenEventId: report.firstBreak.id } : {}),
    },
    requestId: context.requestId,
  });
  return report;
}
