import Link from "next/link";
import type { ReactNode } from "react";
import { ReviewStateBadge } from "./review-state-badge";
import { NumberCell, Table, TableBody, TableCaption, TableCell, TableFoot, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { BANK_TIME_LABEL, formatDateTime, formatDay, formatTime } from "@/lib/bank-time";
import { formatCount } from "@/lib/review/format";
import type { ReconciliationSheet as Sheet } from "@/lib/review/reconciliation";
import { reconciliationStateColumns } from "@/lib/review/reconciliation-columns";

/** Requests first, then the seven states each request ends in: every row adds up to its requests. */
const countColumns = [["requests", "Requests"], ...reconciliationStateColumns] as const;

/**
 * The end-of-day sheet of one branch: on screen, and on paper for the branch supervisor's
 * signature (print styles: black on white, no navigation, rows never split across pages).
 */
export function ReconciliationSheet({ sheet, preparedBy, bankName, signOffForm }: { sheet: Sheet; preparedBy: string; bankName: string; signOffForm?: ReactNode }) {
  return (
    <article className="reconciliation-sheet flex flex-col gap-6 print:gap-4 print:text-[11pt]" data-testid="reconciliation-sheet">
      <header className="hidden print:block">
        <p className="text-sm">{bankName} · Veridesk</p>
        <h1 className="text-2xl font-bold">End-of-day identity verification reconciliation</h1>
        <p className="text-lg">
          {sheet.branch.name} ({sheet.branch.code}) · {formatDay(sheet.day, { weekday: true })}
        </p>
      </header>

      <section aria-labelledby="tellers-heading">
        <h2 id="tellers-heading" className="mb-2 text-lg font-bold">
          Tokens per teller
        </h2>
        {sheet.tellers.length === 0 ? (
          <p className="rounded-card border border-dashed border-line-strong bg-surface p-6 text-ink-muted">
            No token was issued at this branch on this day. Choose another day above, or print the sheet to record a day without verifications.
          </p>
        ) : (
          <TableFrame className="print:overflow-visible print:rounded-none print:border-black">
            <Table>
              <TableCaption className="sr-only">Tokens per teller on {formatDay(sheet.day, { weekday: true })}</TableCaption>
              <TableHead className="print:bg-white print:text-black">
                <TableRow>
                  <TableHeaderCell>Teller</TableHeaderCell>
                  {countColumns.map(([key, label]) => (
                    <TableHeaderCell key={key} className="text-right">
                      {label}
                    </TableHeaderCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {sheet.tellers.map((teller) => (
                  <TableRow key={teller.tellerId} data-testid="reconciliation-teller">
                    <TableHeaderCell scope="row" className="font-semibold text-ink">
                      {teller.tellerName}
                    </TableHeaderCell>
                    {countColumns.map(([key]) => (
                      <NumberCell
                        key={key}
                        data-column={key}
                        className={(key === "outcomeUnknown" || key === "invalid") && teller[key] > 0 ? "font-bold text-warning-700" : key === "requests" ? "font-semibold" : undefined}
                      >
                        {formatCount(teller[key])}
                      </NumberCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
              <TableFoot>
                <TableRow data-testid="reconciliation-total">
                  <TableHeaderCell scope="row" className="text-ink">
                    Branch total
                  </TableHeaderCell>
                  {countColumns.map(([key]) => (
                    <NumberCell key={key} data-column={key}>
                      {formatCount(sheet.total[key])}
                    </NumberCell>
                  ))}
                </TableRow>
              </TableFoot>
            </Table>
          </TableFrame>
        )}
      </section>

      <section aria-labelledby="follow-up-heading">
        <h2 id="follow-up-heading" className="mb-1 text-lg font-bold">
          To follow up ({sheet.followUp.length})
        </h2>
        <p className="mb-2 text-sm text-ink-muted">Tokens with no known outcome, still open, or that the service called invalid. Check each with the teller before signing.</p>
        {sheet.followUp.length === 0 ? (
          <p className="rounded-card border border-line bg-surface p-4" data-testid="follow-up-empty">
            Nothing to follow up: every token of the day reached a known outcome.
          </p>
        ) : (
          <TableFrame className="print:overflow-visible print:rounded-none print:border-black">
            <Table>
              <TableCaption className="sr-only">Tokens to follow up</TableCaption>
              <TableHead className="print:bg-white print:text-black">
                <TableRow>
                  <TableHeaderCell>Token</TableHeaderCell>
                  <TableHeaderCell>Created</TableHeaderCell>
                  <TableHeaderCell>Customer ID</TableHeaderCell>
                  <TableHeaderCell>Reference</TableHeaderCell>
                  <TableHeaderCell>Teller</TableHeaderCell>
                  <TableHeaderCell>State</TableHeaderCell>
                  <TableHeaderCell className="hidden print:table-cell">Checked (initials)</TableHeaderCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {sheet.followUp.map((row) => (
                  <TableRow key={row.id} className="break-inside-avoid" data-testid="follow-up-row">
                    <TableCell className="whitespace-nowrap">
                      <Link href={`/review/tokens/${row.id}`} prefetch={false} className="font-semibold text-brand-700 hover:underline print:font-normal print:text-black">
                        {row.token ? (
                          <span className="font-mono" data-token-code>
                            {row.token}
                          </span>
                        ) : (
                          "no token"
                        )}
                      </Link>
                    </TableCell>
                    <TableCell className="whitespace-nowrap tabular-nums">{formatTime(row.createdAt)}</TableCell>
                    <TableCell className="font-mono whitespace-nowrap">{row.maskedIdNumber}</TableCell>
                    <TableCell className="max-w-40 truncate print:max-w-none">{row.reference}</TableCell>
                    <TableCell>{row.tellerName}</TableCell>
                    <TableCell>
                      <ReviewStateBadge state={row.state} />
                    </TableCell>
                    <TableCell className="hidden w-32 border-b border-black print:table-cell" />
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableFrame>
        )}
        {sheet.followUp.length >= sheet.followUpLimit ? <p className="mt-2 text-sm">Only the first {sheet.followUpLimit} are listed; use the token list for the rest.</p> : null}
      </section>

      <section aria-labelledby="sign-off-heading" className="break-inside-avoid rounded-card border border-line bg-surface p-4 print:rounded-none print:border-black">
        <h2 id="sign-off-heading" className="mb-3 text-lg font-bold">
          Sign-off
        </h2>
        <p className="mb-4">
          I have checked the tokens of {sheet.branch.name} for {formatDay(sheet.day, { weekday: true })}: {formatCount(sheet.total.requests)} requests —{" "}
          {formatCount(sheet.total.successful)} successful, {formatCount(sheet.total.failed)} failed, {formatCount(sheet.total.expired)} expired,{" "}
          {formatCount(sheet.total.invalid)} invalid, {formatCount(sheet.total.open)} still open, {formatCount(sheet.total.outcomeUnknown)} of unknown outcome and{" "}
          {formatCount(sheet.total.notIssued)} not issued — and followed up each listed above.
        </p>
        {sheet.signOff ? (
          <div className="mb-4 rounded-control border-l-4 border-success-600 bg-success-50 p-3 print:border-black print:bg-white" data-testid="sign-off-record">
            <p className="font-semibold">
              Signed off on screen by {sheet.signOff.signedByName} on {formatDateTime(sheet.signOff.signedAt)} ({BANK_TIME_LABEL}).
            </p>
            {sheet.signOff.note ? <p className="text-sm">Note: “{sheet.signOff.note}”</p> : null}
            {sheet.signOff.requests !== null && sheet.signOff.requests !== sheet.total.requests ? (
              <p className="text-sm font-semibold text-warning-700">
                Signed for {formatCount(sheet.signOff.requests)} requests; the day now has {formatCount(sheet.total.requests)}. Check the new tokens and sign off again.
              </p>
            ) : null}
          </div>
        ) : null}
        {signOffForm}
        {/* On paper: the signer of record, and lines for the wet signature. */}
        <dl className="hidden grid-cols-3 gap-6 print:grid">
          {[
            ["Branch supervisor (name)", sheet.signOff?.signedByName],
            ["Signature", undefined],
            ["Date and time", sheet.signOff ? `${formatDateTime(sheet.signOff.signedAt)} (${BANK_TIME_LABEL})` : undefined],
          ].map(([label, value]) => (
            <div key={label}>
              <dd className="flex h-10 items-end border-b border-ink pb-1">{value ?? ""}</dd>
              <dt className="mt-1 text-sm text-ink-muted">{label}</dt>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-sm text-ink-muted">
          Prepared by {preparedBy} · generated {formatDateTime(sheet.generatedAt)} ({BANK_TIME_LABEL}) from Veridesk. ID numbers are masked.
        </p>
      </section>
    </article>
  );
}
