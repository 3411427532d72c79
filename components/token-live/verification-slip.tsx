import { tokenStateLabels, type TokenStateName } from "@/lib/tokens/state";
import { formatDateTime } from "@/lib/bank-time";
import { PrintedTime } from "./printed-time";
import { StateBadge } from "./state-badge";
import type { TokenKind } from "@/lib/domain/token-kinds";

export type VerificationSlipData = {
  bankName: string;
  branchName: string;
  tellerName: string;
  token: string;
  kind: TokenKind;
  idTypeLabel: string;
  maskedIdNumber: string;
  reference: string;
  purpose: string | null;
  state: TokenStateName;
  transactionNumber: string | null;
  failureReason: string | null;
  issuedAt: string | null;
  finishedAt: string | null;
  /** The consent the teller attested, with the wording read out; null on tokens issued before consent was recorded. */
  consent: { attestedAt: string; wordingVersion: number; wording: string | null } | null;
};

/**
 * The printed record of a finished verification (Bank of Ghana discourages photocopying Ghana
 * Cards; the branch files a successful slip instead). A failed slip records the attempt only: it
 * stands in for nothing. On paper only the slip prints: the app's chrome is hidden
 * by the print rules below, whatever layout surrounds it.
 */
export function VerificationSlip({ slip }: { slip: VerificationSlipData }) {
  const rows: [string, string][] = [
    ["Branch", slip.branchName],
    ["Teller", slip.tellerName],
    ["Verification", slip.kind === "fingerprint" ? "Fingerprint, in branch" : "Remote, by link"],
    ["ID type", slip.idTypeLabel],
    ["ID number", slip.maskedIdNumber],
    ["Reference", slip.reference],
  ];
  if (slip.purpose) rows.push(["Purpose", slip.purpose]);
  if (slip.issuedAt) rows.push(["Token issued", formatDateTime(slip.issuedAt)]);
  if (slip.finishedAt) rows.push(["Outcome received", formatDateTime(slip.finishedAt)]);

  return (
    <article className="verification-slip mx-auto w-full max-w-[42rem] rounded-card border border-line bg-surface p-8 text-ink" data-testid="verification-slip">
      <style>{printRules}</style>
      <header className="flex items-start justify-between gap-4 border-b-2 border-ink pb-4">
        <div>
          <p className="text-2xl font-bold">{slip.bankName}</p>
          <h1 className="text-lg font-normal text-ink-muted">Identity verification slip</h1>
        </div>
        <PrintedTime />
      </header>

      <section className="my-6 flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm font-semibold tracking-wide text-ink-muted uppercase">Outcome</p>
          <StateBadge state={slip.state} size="lg" className="mt-1 print:border-ink" />
        </div>
        <div className="text-right">
          <p className="text-sm font-semibold tracking-wide text-ink-muted uppercase">Token</p>
          <p className="font-mono text-3xl font-bold tracking-widest">{slip.token}</p>
        </div>
      </section>

      {slip.transactionNumber ? (
        <section className="mb-6 rounded-control border border-line-strong p-4">
          <p className="text-sm font-semibold tracking-wide text-ink-muted uppercase">Transaction number</p>
          <p className="font-mono text-2xl font-bold break-all">{slip.transactionNumber}</p>
        </section>
      ) : null}
      {slip.state === "failed" ? (
        <section className="mb-6 rounded-control border border-line-strong p-4" data-testid="slip-failure-reason">
          <p className="text-sm font-semibold tracking-wide text-ink-muted uppercase">Reason given by the service</p>
          <p className="font-semibold">{slip.failureReason ?? "No reason was given."}</p>
        </section>
      ) : null}

      <dl className="grid grid-cols-[10rem_minmax(0,1fr)] gap-x-4 gap-y-2">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-muted">{label}</dt>
            <dd className="font-medium break-words">{value}</dd>
          </div>
        ))}
      </dl>

      <section className="mt-6 rounded-control border border-line p-4 text-sm" data-testid="slip-consent">
        {slip.consent ? (
          <>
            <p className="font-semibold">
              Customer consent attested by {slip.tellerName} on {formatDateTime(slip.consent.attestedAt)} (wording version {slip.consent.wordingVersion})
            </p>
            {slip.consent.wording ? <p className="mt-1 text-ink-muted">&ldquo;{slip.consent.wording}&rdquo;</p> : null}
          </>
        ) : (
          <p className="font-semibold">No consent attestation recorded (token issued before consent was recorded).</p>
        )}
      </section>

      <footer className="mt-10 grid grid-cols-2 gap-8 text-sm text-ink-muted">
        <p className="border-t border-ink pt-2">Teller&apos;s signature</p>
        <p className="border-t border-ink pt-2">Customer&apos;s signature</p>
      </footer>
      <p className="mt-6 text-xs text-ink-subtle">
        {slip.state === "successful"
          ? `${tokenStateLabels[slip.state]} · This slip replaces a photocopy of the customer's ID card. It carries no full ID number.`
          : `${tokenStateLabels[slip.state]} · This verification did not confirm the customer's identity: the slip records the attempt only. It carries no full ID number.`}
      </p>
    </article>
  );
}

// Hides everything but the slip when printing, whatever shell surrounds it, and prints it on
// white at full width with its colours (the badge keeps icon + word for black-and-white printers).
const printRules = `
@media print {
  @page { size: A4 portrait; margin: 16mm; }
  body * { visibility: hidden !important; }
  .verification-slip, .verification-slip * { visibility: visible !important; }
  .verification-slip { position: absolute; inset: 0 auto auto 0; width: 100%; max-width: none; border: none; padding: 0; box-shadow: none; }
  html, body { background: #fff !important; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;
