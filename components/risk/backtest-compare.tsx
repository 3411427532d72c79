import Link from "next/link";
import { NumberCell, Table, TableBody, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { formatDateTime, formatDay } from "@/lib/bank-time";
import type { BacktestReport, SampleToken } from "@/lib/risk/backtest";
import { CaseStateBadge } from "./case-state-badge";

type Column = { label: string; result: BacktestReport["perRule"][number] };

export type BacktestCompareProps = {
  tokensEvaluated: number;
  columns: Column[];
  samples: Map<string, SampleToken>;
  branchNames: Map<string, string>;
};

/** Two versions of one rule over the same range, side by side: what each would have flagged, and how past cases would have gone. */
export function BacktestCompare({ tokensEvaluated, columns, samples, branchNames }: BacktestCompareProps) {
  const figures: { label: string; value: (result: Column["result"]) => string | number }[] = [
    { label: "Subjects flagged", value: (result) => result.subjects },
    { label: "Tokens matched", value: (result) => result.matchedTokens },
    { label: "Matches (triggers)", value: (result) => result.triggers },
    { label: "Per 1,000 tokens", value: (result) => result.firePerThousand },
    { label: "Past cases of this rule", value: (result) => result.pastCases.considered },
    { label: "… still raised", value: (result) => result.pastCases.stillRaised },
    { label: "Cleared as false positive, now avoided", value: (result) => result.pastCases.cleared.avoided },
    { label: "Cleared as false positive, still raised", value: (result) => result.pastCases.cleared.stillRaised },
    { label: "Reported, now missed", value: (result) => result.pastCases.reported.avoided },
  ];
  return (
    <div className="space-y-6" data-testid="backtest">
      <p className="text-ink-muted">{tokensEvaluated} tokens evaluated. Read only: a backtest makes no alert and changes nothing.</p>
      <TableFrame>
        <Table>
          <TableHead>
            <TableRow>
              <TableHeaderCell>Figure</TableHeaderCell>
              {columns.map((column) => (
                <TableHeaderCell key={column.label} className="text-right">
                  {column.label}
                </TableHeaderCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {figures.map((figure) => (
              <TableRow key={figure.label}>
                <TableHeaderCell scope="row">{figure.label}</TableHeaderCell>
                {columns.map((column) => (
                  <NumberCell key={column.label}>{figure.value(column.result)}</NumberCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>
      {columns.map((column) => {
        const perDay = Object.entries(column.result.alertsPerBranchDay).sort(([a], [b]) => a.localeCompare(b));
        const sampleRows = column.result.sampleTokenIds.map((id) => samples.get(id)).filter((row): row is SampleToken => row !== undefined);
        return (
          <section key={column.label} aria-label={`${column.label}: details`} className="space-y-3">
            <h3 className="text-lg font-semibold">{column.label}</h3>
            {perDay.length === 0 ? (
              <p className="text-ink-muted">No alert in this range.</p>
            ) : (
              <TableFrame>
                <Table>
                  <TableHead>
                    <TableRow>
                      <TableHeaderCell>Day</TableHeaderCell>
                      <TableHeaderCell>Branch</TableHeaderCell>
                      <TableHeaderCell className="text-right">Alerts</TableHeaderCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {perDay.map(([key, count]) => {
                      const [day, branchId] = key.split("|") as [string, string];
                      return (
                        <TableRow key={key}>
                          <TableCell className="whitespace-nowrap">{formatDay(day)}</TableCell>
                          <TableCell>{branchNames.get(branchId) ?? "Head office (staff)"}</TableCell>
                          <NumberCell>{count}</NumberCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              </TableFrame>
            )}
            {sampleRows.length > 0 ? (
              <TableFrame>
                <Table>
                  <TableHead>
                    <TableRow>
                      <TableHeaderCell>Sample token</TableHeaderCell>
                      <TableHeaderCell>ID number</TableHeaderCell>
                      <TableHeaderCell>Branch</TableHeaderCell>
                      <TableHeaderCell>Outcome</TableHeaderCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {sampleRows.map((row) => (
                      <TableRow key={row.id}>
                        <TableCell className="whitespace-nowrap">
                          {formatDateTime(row.createdAt)} · {row.kind}
                        </TableCell>
                        <TableCell className="whitespace-nowrap">{row.maskedIdNumber}</TableCell>
                        <TableCell>{row.branchName}</TableCell>
                        <TableCell>{row.outcome}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableFrame>
            ) : null}
            {column.result.pastCases.cases.length > 0 ? (
              <ul className="space-y-1">
                {column.result.pastCases.cases.map((one) => (
                  <li key={one.caseId}>
                    Case about{" "}
                    <Link href={`/review/cases/${one.caseId}`} className="font-semibold text-brand-800 underline">
                      {one.subjectLabel}
                    </Link>{" "}
                    <CaseStateBadge state={one.state} /> {one.stillRaised ? "still raised" : "not raised by this version"}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
