import { NumberCell, Table, TableBody, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import type { RuleFigure } from "@/lib/risk/figures";
import { ruleOf } from "@/lib/risk/rules";

const rate = (value: number | null) => (value === null ? "—" : String(value));
const share = (value: number | null) => (value === null ? "—" : `${Math.round(value * 100)} %`);

/** Per rule: how often it fires per 1,000 tokens (live and shadow), and how many of its decided cases were false positives. */
export function RuleFiguresTable({ figures }: { figures: RuleFigure[] }) {
  return (
    <TableFrame>
      <Table>
        <TableHead>
          <TableRow>
            <TableHeaderCell>Rule</TableHeaderCell>
            <TableHeaderCell className="text-right">Live hits per 1,000 tokens</TableHeaderCell>
            <TableHeaderCell className="text-right">Shadow hits per 1,000 tokens</TableHeaderCell>
            <TableHeaderCell className="text-right">Cases decided</TableHeaderCell>
            <TableHeaderCell className="text-right">Cleared as false positive</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {figures.map((figure) => (
            <TableRow key={figure.ruleKey}>
              <TableCell>
                {ruleOf(figure.ruleKey).number}. {ruleOf(figure.ruleKey).title}
              </TableCell>
              <NumberCell>{rate(figure.livePerThousand)}</NumberCell>
              <NumberCell>{rate(figure.shadowPerThousand)}</NumberCell>
              <NumberCell>{figure.decidedCases}</NumberCell>
              <NumberCell>
                {share(figure.falsePositiveShare)}
                {figure.decidedCases > 0 ? <span className="text-ink-muted"> ({figure.clearedCases})</span> : null}
              </NumberCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableFrame>
  );
}
