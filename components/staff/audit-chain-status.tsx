import { Alert } from "@/components/ui/alert";
import type { ChainCheckReport } from "@/lib/audit/chain-report";

/** The result of checking the audit trail's hash chain (ADR 0019), as the audit page shows it. */
export function AuditChainStatus({ report }: { report: ChainCheckReport }) {
  if (report.firstBreak) {
    return (
      <Alert tone="danger" title="The audit trail has been tampered with" className="mb-6">
        <p>
          Event {report.firstBreak.id} (number {report.firstBreak.chainSeq} in the chain): {report.firstBreak.message}. Everything
          from there on cannot be trusted. Tell the bank&apos;s security officer; do not change anything.
        </p>
        <p className="mt-1 text-sm">
          Last intact link: number {report.headSeq ?? "none"}, hash <code className="font-mono break-all">{report.headHash}</code>
        </p>
      </Alert>
    );
  }
  return (
    <Alert tone="success" title="The audit trail is intact" className="mb-6">
      <p>
        Every event checked in {report.durationMs} ms: none changed, none removed.
      </p>
      <p className="mt-1 text-sm">
        Head hash (compare with the copy kept outside Veridesk):{" "}
        <code data-testid="audit-head-hash" className="font-mono break-all">
          {report.headHash}
        </code>
      </p>
    </Alert>
  );
}
