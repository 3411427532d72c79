import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/bank-time";
import type { CaseDetail } from "@/lib/risk/cases";
import { CaseStateBadge, SeverityBadge } from "./case-state-badge";

/** A case as its reviewers read it: why (one sentence per alert), the held tokens, the notes, the clock. */
export function CaseDetailView({ detail }: { detail: CaseDetail }) {
  const { riskCase } = detail;
  return (
    <div className="space-y-8">
      <Card className="space-y-3 p-4">
        <div className="flex flex-wrap items-center gap-2">
          <CaseStateBadge state={riskCase.state} />
          <SeverityBadge severity={riskCase.severity} />
        </div>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          <dt className="text-ink-muted">Routed to</dt>
          <dd>{detail.branchName ? `${detail.branchName} supervisor and head office` : "Head office only"}</dd>
          <dt className="text-ink-muted">Opened</dt>
          <dd>{formatDateTime(riskCase.openedAt)}</dd>
          <dt className="text-ink-muted">Assignee</dt>
          <dd>{riskCase.assigneeUserId ? (detail.names[riskCase.assigneeUserId] ?? "—") : "Nobody yet"}</dd>
          {riskCase.suspicionFormedAt ? (
            <>
              <dt className="text-ink-muted">Suspicion formed</dt>
              <dd>{formatDateTime(riskCase.suspicionFormedAt)}</dd>
              <dt className="text-ink-muted">Report due by</dt>
              <dd className="font-semibold" data-testid="report-due">
                {detail.reportDueAt ? formatDateTime(detail.reportDueAt) : "—"} (24 hours)
              </dd>
            </>
          ) : null}
          {riskCase.decisionReason && riskCase.decidedAt ? (
            <>
              <dt className="text-ink-muted">Decided</dt>
              <dd>
                {formatDateTime(riskCase.decidedAt)} by {riskCase.decidedByUserId ? (detail.names[riskCase.decidedByUserId] ?? "—") : "—"}: {riskCase.decisionReason}
              </dd>
            </>
          ) : null}
        </dl>
      </Card>
      <section aria-labelledby="case-alerts">
        <h2 id="case-alerts" className="mb-3 text-xl font-semibold">
          Why
        </h2>
        <ul className="space-y-2">
          {detail.alerts.map((alert) => (
            <li key={alert.id} className="rounded border border-line p-3" data-testid="case-alert">
              <p className="font-semibold">{alert.sentence}</p>
              <p className="text-sm text-ink-muted">
                First {formatDateTime(alert.firstHitAt)}, last {formatDateTime(alert.lastHitAt)}; {alert.tokenIds.length} tokens, {alert.auditEventIds.length} audit events
              </p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="case-tokens">
        <h2 id="case-tokens" className="mb-3 text-xl font-semibold">
          Tokens held as evidence
        </h2>
        <TableFrame>
          <Table>
            <TableHead>
              <TableRow>
                <TableHeaderCell>When</TableHeaderCell>
                <TableHeaderCell>Kind</TableHeaderCell>
                <TableHeaderCell>ID number</TableHeaderCell>
                <TableHeaderCell>Phone</TableHeaderCell>
                <TableHeaderCell>Branch</TableHeaderCell>
                <TableHeaderCell>Held</TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {detail.tokens.map((token) => (
                <TableRow key={token.id}>
                  <TableCell className="whitespace-nowrap">{formatDateTime(token.createdAt)}</TableCell>
                  <TableCell>{token.kind === "remote" ? "Remote" : "Fingerprint"}</TableCell>
                  <TableCell className="whitespace-nowrap">{token.maskedIdNumber}</TableCell>
                  <TableCell>{token.phone ?? "—"}</TableCell>
                  <TableCell>{token.branchName}</TableCell>
                  <TableCell className="whitespace-nowrap">{token.heldUntilClosed ? "Until closed" : "Released"}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableFrame>
      </section>
      <section aria-labelledby="case-notes">
        <h2 id="case-notes" className="mb-3 text-xl font-semibold">
          Notes
        </h2>
        {detail.notes.length === 0 ? (
          <p className="text-ink-muted">No notes yet.</p>
        ) : (
          <ol className="space-y-2">
            {detail.notes.map((note) => (
              <li key={note.id} className="rounded border border-line p-3">
                <p className="text-sm text-ink-muted">
                  {note.authorLabel}, {formatDateTime(note.at)}
                </p>
                <p className="whitespace-pre-wrap">{note.body}</p>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
