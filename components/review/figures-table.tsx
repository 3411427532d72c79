import { NumberCell, Table, TableBody, TableCaption, TableFoot, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import type { FigureCounts, FigureGroup } from "@/lib/review/dto";
import { formatCount, formatDuration, formatRate } from "@/lib/review/format";

const columns: { key: keyof FigureCounts; label: string; format: (value: number | null) => string }[] = [
  { key: "issued", label: "Issued", format: (value) => formatCount(value ?? 0) },
  { key: "successful", label: "Successful", format: (value) => formatCount(value ?? 0) },
  { key: "failed", label: "Failed", format: (value) => formatCount(value ?? 0) },
  { key: "expired", label: "Expired", format: (value) => formatCount(value ?? 0) },
  { key: "invalid", label: "Invalid", format: (value) => formatCount(value ?? 0) },
  { key: "outcomeUnknown", label: "Outcome unknown", format: (value) => formatCount(value ?? 0) },
  { key: "open", label: "Still open", format: (value) => formatCount(value ?? 0) },
  { key: "notIssued", label: "Not issued", format: (value) => formatCount(value ?? 0) },
  { key: "successRate", label: "Success rate", format: formatRate },
  { key: "medianSecondsToResult", label: "Median to result", format: formatDuration },
  { key: "p90SecondsToResult", label: "90th pct. to result", format: formatDuration },
];

/** The figures as a table: what the chart shows, readable by screen readers and in print. */
export function FiguresTable({ id, caption, groupLabel, groups, total }: { id: string; caption: string; groupLabel: string; groups: FigureGroup[]; total: FigureCounts }) {
  return (
    <TableFrame>
      <Table id={id} data-testid="figures-table" className="text-[0.9rem]">
        <TableCaption>{caption}</TableCaption>
        <TableHead>
          <TableRow>
            <TableHeaderCell>{groupLabel}</TableHeaderCell>
            {columns.map((column) => (
              <TableHeaderCell key={column.key} className="px-2.5 text-right whitespace-normal">
                {column.label}
              </TableHeaderCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {groups.map((group) => (
            <TableRow key={group.key} data-testid="figures-row" data-key={group.key}>
              <TableHeaderCell scope="row" className="px-3 font-semibold whitespace-normal text-ink">
                {group.label}
                {group.sublabel ? <span className="block text-sm font-normal text-ink-muted">{group.sublabel}</span> : null}
              </TableHeaderCell>
              {columns.map((column) => (
                <NumberCell key={column.key} data-column={column.key} className="px-2.5 whitespace-nowrap">
                  {column.format(group[column.key])}
                </NumberCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
        <TableFoot>
          <TableRow data-testid="figures-total">
            <TableHeaderCell scope="row" className="text-ink">
              Total
            </TableHeaderCell>
            {columns.map((column) => (
              <NumberCell key={column.key} data-column={column.key} className="px-2.5 whitespace-nowrap">
                {column.format(total[column.key])}
              </NumberCell>
            ))}
          </TableRow>
        </TableFoot>
      </Table>
    </TableFrame>
  );
}
