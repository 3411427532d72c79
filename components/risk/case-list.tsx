import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/bank-time";
import { CaseStateBadge, SeverityBadge } from "./case-state-badge";

export type CaseListItem = {
  id: string;
  subjectType: string;
  subjectLabel: string;
  severity: string;
  state: string;
  openedAt: Date;
  alerts: number;
  sentence: string | null;
  branchName: string | null;
};

const subjectWords: Record<string, string> = { id: "ID number", phone: "Phone", staff: "Staff member" };

/** The risk cases routed to the viewer, newest first; each row leads to its case. */
export function CaseList({ cases }: { cases: CaseListItem[] }) {
  if (cases.length === 0) return <EmptyState title="No cases">Nothing the risk rules found is waiting for you.</EmptyState>;
  return (
    <TableFrame>
      <Table>
        <TableHead>
          <TableRow>
            <TableHeaderCell>Subject</TableHeaderCell>
            <TableHeaderCell>Why</TableHeaderCell>
            <TableHeaderCell>Severity</TableHeaderCell>
            <TableHeaderCell>State</TableHeaderCell>
            <TableHeaderCell>Routed to</TableHeaderCell>
            <TableHeaderCell>Opened</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {cases.map((item) => (
            <TableRow key={item.id}>
              <TableCell>
                <Link href={`/review/cases/${item.id}`} prefetch={false} className="font-semibold text-brand-800 underline">
                  {subjectWords[item.subjectType] ?? item.subjectType} {item.subjectLabel}
                </Link>
              </TableCell>
              <TableCell>
                {item.sentence}
                {item.alerts > 1 ? <span className="text-ink-muted"> (+{item.alerts - 1} more)</span> : null}
              </TableCell>
              <TableCell>
                <SeverityBadge severity={item.severity} />
              </TableCell>
              <TableCell>
                <CaseStateBadge state={item.state} />
              </TableCell>
              <TableCell>{item.branchName ? `${item.branchName} and head office` : "Head office"}</TableCell>
              <TableCell className="whitespace-nowrap">{formatDateTime(item.openedAt)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableFrame>
  );
}
