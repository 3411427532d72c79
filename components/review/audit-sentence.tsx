import Link from "next/link";
import type { ReactNode } from "react";
import { auditActionsToldInFull, describeAuditEvent, type AuditSentenceRow } from "@/lib/review/sentences";

/**
 * An audit event in one plain sentence, the token it names linked to its review page; then its
 * details (`children`) unless the sentence already told them.
 */
export function AuditSentence({ row, canOpenTokens, children }: { row: AuditSentenceRow; canOpenTokens: boolean; children?: ReactNode }) {
  const sentence = describeAuditEvent(row);
  return (
    <div className="mb-1" data-testid="audit-sentence">
      <p className="font-medium text-ink">
        {sentence.text}
        {sentence.tokenRequestId && canOpenTokens ? (
          <>
            {" "}
            <Link href={`/review/tokens/${sentence.tokenRequestId}`} className="text-sm font-semibold whitespace-nowrap text-brand-700 underline underline-offset-2" data-testid="audit-token-link">
              Open the token
            </Link>
          </>
        ) : null}
      </p>
      {sentence.detail ? <p className="text-sm text-ink-muted">{sentence.detail}</p> : null}
      {auditActionsToldInFull.has(row.action) ? null : <div className="mt-1">{children}</div>}
    </div>
  );
}
