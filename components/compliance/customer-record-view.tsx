"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Download, Printer, Search, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { toFormFailure, type FormFailure } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";
import type { CustomerRecord, ErasureOnRequestReport } from "@/lib/review/dto";
import { customerRecordRequestSchema } from "@/lib/review/customer-record-schema";
import { csvTextCell } from "@/lib/review/csv-cell";
import { reviewIdTypeLabels, reviewIdTypes } from "@/lib/review/filters";
import { formatDateTime, formatIsoDateTime } from "@/lib/bank-time";

type RequestInput = z.input<typeof customerRecordRequestSchema>;
type RequestOutput = z.output<typeof customerRecordRequestSchema>;

type Props = {
  produce: (input: RequestOutput) => Promise<ActionResult<CustomerRecord>>;
  erase: (input: RequestOutput) => Promise<ActionResult<ErasureOnRequestReport>>;
};

const fieldNames = ["idType", "idNumber", "reason"] as const;

/**
 * The customer's own records (ADR 0022). The ID number goes to the server in the body of a server
 * action (POST) and stays in this component's state: never in the URL, the history or a link.
 */
export function CustomerRecordView({ produce, erase }: Props) {
  const [record, setRecord] = useState<CustomerRecord | null>(null);
  const [asked, setAsked] = useState<RequestOutput | null>(null);
  const [formError, setFormError] = useState<FormFailure>();
  const [erasure, setErasure] = useState<{ report?: ErasureOnRequestReport; refusal?: string }>();
  const [erasureReason, setErasureReason] = useState("");
  const [erasureError, setErasureError] = useState<string>();
  const [isErasing, setIsErasing] = useState(false);
  const form = useForm<RequestInput, unknown, RequestOutput>({
    resolver: zodResolver(customerRecordRequestSchema),
    defaultValues: { idType: "GHANA_CARD", idNumber: "", reason: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    setErasure(undefined);
    const result = await produce(values);
    if (!result.ok) {
      setFormError(toFormFailure(result, form, fieldNames, "No record was produced."));
      setRecord(null);
      return;
    }
    setRecord(result.data);
    setAsked(values);
  });

  async function eraseOnRequest() {
    if (!asked) return;
    setIsErasing(true);
    setErasureError(undefined);
    const result = await erase({ ...asked, reason: erasureReason });
    setIsErasing(false);
    if (!result.ok) {
      if (result.fieldErrors.reason) setErasureError(result.fieldErrors.reason.join(" "));
      else setErasure({ refusal: result.formError ?? "Refused." });
      return;
    }
    setErasure({ report: result.data });
    // The record after the erasure, for the customer's copy (same request, same reason).
    const again = await produce(asked);
    if (again.ok) setRecord(again.data);
  }

  return (
    <div className="flex flex-col gap-6">
      <Card className="no-print">
        <form onSubmit={onSubmit} noValidate aria-label="Find a customer's records" className="flex flex-col gap-4">
          {formError ? <Alert tone="danger" title="No record produced">{formError.message}</Alert> : null}
          <fieldset disabled={isSubmitting} className="m-0 grid min-w-0 gap-4 border-0 p-0 sm:grid-cols-[12rem_minmax(0,1fr)]">
            <Field controlId="record-id-type" label="ID type" error={errors.idType?.message}>
              {(describedBy) => (
                <Select id="record-id-type" {...form.register("idType")} aria-describedby={describedBy}>
                  {reviewIdTypes.map((idType) => (
                    <option key={idType} value={idType}>
                      {reviewIdTypeLabels[idType]}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field controlId="record-id-number" label="ID number" hint="The whole number, as on the document." error={errors.idNumber?.message}>
              {(describedBy) => <Input id="record-id-number" autoComplete="off" {...form.register("idNumber")} aria-describedby={describedBy} aria-invalid={errors.idNumber ? true : undefined} />}
            </Field>
            <div className="sm:col-span-2">
              <Field controlId="record-reason" label="Reason" hint="E.g. the customer's written request of today, reference number. Recorded in the audit trail." error={errors.reason?.message}>
                {(describedBy) => <Input id="record-reason" autoComplete="off" {...form.register("reason")} aria-describedby={describedBy} aria-invalid={errors.reason ? true : undefined} />}
              </Field>
            </div>
            <div className="sm:col-span-2">
              <Button type="submit" isBusy={isSubmitting}>
                {isSubmitting ? null : <Search aria-hidden className="size-5" />}
                {isSubmitting ? "Producing…" : "Produce the record"}
              </Button>
            </div>
          </fieldset>
        </form>
      </Card>

      {record ? (
        <>
          <div className="no-print flex flex-wrap gap-3">
            <Button type="button" variant="secondary" onClick={() => window.print()}>
              <Printer aria-hidden className="size-5" /> Print
            </Button>
            <Button type="button" variant="secondary" onClick={() => download(record)}>
              <Download aria-hidden className="size-5" /> Download (CSV)
            </Button>
          </div>
          <RecordDocument record={record} />

          <Card className="no-print flex flex-col gap-3" aria-labelledby="erasure-heading">
            <h2 id="erasure-heading" className="text-lg font-bold">
              Erase on the customer&apos;s request
            </h2>
            <p className="text-ink-muted">
              Contact data is erased at once. Identity data is kept until the Anti-Money Laundering Act&apos;s five years have passed; nothing under a legal hold is erased.
            </p>
            {erasure?.refusal ? (
              <Alert tone="danger" title="Refused">
                {erasure.refusal}
              </Alert>
            ) : null}
            {erasure?.report ? (
              <Alert tone="success" title="Erased">
                Contact data of {erasure.report.contactErased} and identity data of {erasure.report.identityErased} verification(s) erased.
                {erasure.report.identityKept.length > 0 ? ` Identity data of ${erasure.report.identityKept.length} kept for the AML minimum.` : ""}
                {erasure.report.held.length > 0 ? ` ${erasure.report.held.length} under a legal hold, untouched.` : ""}
              </Alert>
            ) : null}
            <Field controlId="erasure-reason" label="Reason for the erasure" hint="E.g. the customer's written request, reference number." error={erasureError}>
              {(describedBy) => <Input id="erasure-reason" value={erasureReason} onChange={(event) => setErasureReason(event.target.value)} autoComplete="off" aria-describedby={describedBy} aria-invalid={erasureError ? true : undefined} />}
            </Field>
            <div>
              <Button type="button" variant="danger" isBusy={isErasing} onClick={() => void eraseOnRequest()}>
                {isErasing ? null : <Trash2 aria-hidden className="size-5" />}
                {isErasing ? "Erasing…" : "Erase what may be erased"}
              </Button>
            </div>
          </Card>
        </>
      ) : null}
    </div>
  );
}

function RecordDocument({ record }: { record: CustomerRecord }) {
  return (
    <article className="customer-record rounded-card border border-line bg-surface p-6 text-ink" data-testid="customer-record" aria-labelledby="record-heading">
      <style>{printRules}</style>
      <header className="mb-4 border-b-2 border-ink pb-3">
        <h2 id="record-heading" className="text-2xl font-bold">
          Record of verifications held
        </h2>
        <p className="text-ink-muted">
          {record.idTypeLabel} {record.maskedIdNumber} · produced {formatDateTime(record.producedAt)} by {record.producedBy}
        </p>
        <p className="text-sm text-ink-muted">
          Contact data is kept {record.retention.contactDays} days after a verification ends; identity data {record.retention.identityYears} years (Anti-Money Laundering Act 2020, Act 1044).
        </p>
      </header>
      {record.entries.length === 0 ? (
        <p>No verification in your branches holds this ID number.</p>
      ) : (
        <ol className="flex flex-col gap-4">
          {record.entries.map((entry) => (
            <li key={entry.tokenRequestId} className="break-inside-avoid rounded-control border border-line p-4" data-testid="record-entry">
              <p className="font-semibold">
                {formatDateTime(entry.createdAt)} · {entry.branchName} · {entry.purpose}
              </p>
              <p className="text-sm">
                {entry.kindLabel} · {entry.idTypeLabel} · outcome: {entry.outcome}
                {entry.transactionNumber ? ` · transaction ${entry.transactionNumber}` : ""}
              </p>
              <p className="text-sm text-ink-muted">Consent: {entry.consent}</p>
              {entry.legalHold ? <p className="text-sm font-semibold">Under a legal hold: {entry.legalHold.reason}</p> : null}
              <dl className="mt-2 grid grid-cols-[minmax(0,14rem)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
                {entry.personalData.map((datum) => (
                  <div key={datum.label} className="contents">
                    <dt className="text-ink-muted">{datum.label}</dt>
                    <dd>{datum.status}</dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}

function download(record: CustomerRecord): void {
  const header = ["Date", "Branch", "Purpose", "Kind", "ID type", "Outcome", "Transaction number", "Consent", "Legal hold", "Personal data held"];
  const lines = [header.join(",")];
  for (const entry of record.entries) {
    lines.push(
      [
        // A CSV keeps the ISO order: spreadsheets and scripts read it (the screen says "24 Nov 2026").
        formatIsoDateTime(entry.createdAt),
        entry.branchName,
        entry.purpose,
        entry.kindLabel,
        entry.idTypeLabel,
        entry.outcome,
        entry.transactionNumber ?? "",
        entry.consent,
        entry.legalHold?.reason ?? "",
        entry.personalData.map((datum) => `${datum.label}: ${datum.status}`).join("; "),
      ]
        .map(csvTextCell)
        .join(","),
    );
  }
  const blob = new Blob([`\ufeff${lines.join("\r\n")}\r\n`], { type: "text/csv;charset=utf-8" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `record-of-verifications-${record.producedAt.slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

// On paper only the record prints, whatever shell surrounds it.
const printRules = `
@media print {
  @page { size: A4 portrait; margin: 16mm; }
  body * { visibility: hidden !important; }
  .customer-record, .customer-record * { visibility: visible !important; }
  .customer-record { position: absolute; inset: 0 auto auto 0; width: 100%; border: none; padding: 0; }
  .no-print { display: none !important; }
  html, body { background: #fff !important; }
}
`;
