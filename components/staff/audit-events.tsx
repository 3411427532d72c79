import { AuditSentence } from "@/components/review/audit-sentence";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { auditActionLabel } from "@/lib/audit/actions";
import { formatDateTime } from "@/lib/bank-time";
import type { AuditNames } from "@/lib/review/audit-details";
import type { AuditExportRow } from "@/lib/review/audit-trail";
import { auditActorName } from "@/lib/review/sentences";
import { AuditDetails } from "./audit-details";

type AuditEventsProps = { events: AuditExportRow[]; names: AuditNames; canOpenTokens: boolean };

const toneOf = (action: string) => (action.includes("failed") || action.includes("locked") || action.includes("refused") ? "warning" : "neutral");

/**
 * One page of the audit trail. From 768 px a table of three columns (when and where, who, what
 * happened), which fits a desk monitor without scrolling; below that each event is a card, read
 * top to bottom on a phone: an event is a sentence and its details, which a narrow column
 * sideways would cut into pieces. The same events, each rendered once per layout; the other
 * layout is not displayed, so assistive technology meets each event once.
 */
export function AuditEvents({ events, names, canOpenTokens }: AuditEventsProps) {
  return (
    <>
      <TableFrame className="max-md:hidden">
        <Table>
          <TableCaption className="sr-only">Audit events, newest first</TableCaption>
          <TableHead>
            <TableRow>
              <TableHeaderCell className="w-40">When</TableHeaderCell>
              <TableHeaderCell className="w-44">Who</TableHeaderCell>
              <TableHeaderCell>What happened</TableHeaderCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {events.map((event) => (
              <TableRow key={event.id} data-action={event.action} data-branch-code={event.branchCode ?? ""} className="align-top">
                <TableCell className="text-sm tabular-nums">
                  <When event={event} />
                </TableCell>
                <TableCell className="text-sm">
                  <Who event={event} />
                </TableCell>
                <TableCell className="min-w-0">
                  <What event={event} names={names} canOpenTokens={canOpenTokens} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>
      <ol className="flex flex-col gap-3 md:hidden" aria-label="Audit events, newest first">
        {events.map((event) => (
          <li key={event.id} data-action={event.action} data-testid="audit-card" className="flex flex-col gap-2 rounded-card border border-line bg-surface p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm text-ink-muted">
              <span className="tabular-nums">
                {formatDateTime(event.at, { seconds: true })}
                {event.branchCode ? ` · ${event.branchCode}` : ""}
              </span>
              <span>
                <span className="font-semibold text-ink">{auditActorName(event)}</span>
                {event.actorName && event.actorLabel ? <span className="font-mono text-xs"> {event.actorLabel}</span> : null}
              </span>
            </div>
            <What event={event} names={names} canOpenTokens={canOpenTokens} />
          </li>
        ))}
      </ol>
    </>
  );
}

function When({ event }: { event: AuditExportRow }) {
  return (
    <>
      <span className="block">{formatDateTime(event.at, { seconds: true })}</span>
      {event.branchCode ? (
        <span className="block text-ink-muted" title={event.branchName ?? undefined}>
          Branch <span className="font-mono">{event.branchCode}</span>
        </span>
      ) : null}
    </>
  );
}

function Who({ event }: { event: AuditExportRow }) {
  return (
    <>
      <span className="block font-semibold text-ink">{auditActorName(event)}</span>
      {event.actorName && event.actorLabel ? <span className="block font-mono text-xs break-all text-ink-muted">{event.actorLabel}</span> : null}
    </>
  );
}

function What({ event, names, canOpenTokens }: { event: AuditExportRow; names: AuditNames; canOpenTokens: boolean }) {
  return (
    <div className="flex min-w-0 flex-col items-start gap-1">
      <Badge tone={toneOf(event.action)} canWrap>
        {auditActionLabel(event.action)}
      </Badge>
      <AuditSentence row={event} canOpenTokens={canOpenTokens}>
        <AuditDetails details={event.details} names={names} />
      </AuditSentence>
    </div>
  );
}
